import NIOConcurrencyHelpers

/// The server's connection counters: open, accepted, failed handshakes, control frames sent.
///
/// Kept by the connections; read by both reports of the journal's neighbourhood: `stats()` (`/v1/stats`, counts
/// since the last clear) and `RequestMetrics` (`/metrics`, Prometheus counters since start).
public final class ServerMetrics: Sendable {
    private struct Counts {
        var openConnections = 0
        var totalConnections = 0
        var failedHandshakes = 0
        var controlFrames = HTTP2ControlFrameCounts()
    }

    private let counts = NIOLockedValueBox(Counts())

    /// All counters at zero.
    public init() {}

    func connectionOpened() {
        counts.withLockedValue {
            $0.openConnections += 1
            $0.totalConnections += 1
        }
    }

    func connectionClosed() {
        counts.withLockedValue { $0.openConnections -= 1 }
    }

    func handshakeFailed() {
        counts.withLockedValue { $0.failedHandshakes += 1 }
    }

    func controlFramesSent(_ sent: HTTP2ControlFrameCounts) {
        counts.withLockedValue { $0.controlFrames.add(sent) }
    }

    /// Control frames the APNs connections sent since start, by type (all connections together).
    public var controlFramesSent: HTTP2ControlFrameCounts { counts.withLockedValue { $0.controlFrames } }
    /// Connections open now.
    public var openConnections: Int { counts.withLockedValue { $0.openConnections } }
    /// Connections accepted since start.
    public var totalConnections: Int { counts.withLockedValue { $0.totalConnections } }
    /// TLS handshakes that failed since start.
    public var failedHandshakes: Int { counts.withLockedValue { $0.failedHandshakes } }
}
