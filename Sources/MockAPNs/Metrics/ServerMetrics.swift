import Foundation
import NIOConcurrencyHelpers

/// Every count the server keeps, in one place: connections and the control frames they sent (counted by the
/// connections), and requests (counted by the journal as it appends, drops and clears records). `GET /v1/stats`
/// (`stats(of:)`) and `GET /metrics` (`prometheusText(journal:)`) both read these, and nothing else counts.
///
/// Two locks, so that a connection event never waits for a journal append: one for the connections' counts, and
/// one for the request counts, which the journal takes under its own lock, once per appended batch.
public final class ServerMetrics: Sendable {
    /// The connections' counts, read together.
    struct ConnectionCounts {
        /// Connections open now.
        var open = 0
        /// Connections accepted since start.
        var total = 0
        /// TLS handshakes that failed since start.
        var failedHandshakes = 0
        /// The newest of them.
        var lastFailedHandshake: FailedHandshake?
        /// Control frames the APNs connections sent since start, by type.
        var controlFrames = HTTP2FrameCounts(.sent)
    }

    private let connections = NIOLockedValueBox(ConnectionCounts())
    private let requests: NIOLockedValueBox<RequestCounts>

    /// All counters at zero; a request's latency that its record does not end is read on `clock` (the server's).
    public init(clock: any APNsClock = SystemClock()) {
        requests = NIOLockedValueBox(RequestCounts(clock: clock))
    }

    /// Counts a connection accepted (and open).
    func connectionOpened() {
        connections.withLockedValue {
            $0.open += 1
            $0.total += 1
        }
    }

    /// Counts a connection closed.
    func connectionClosed() {
        connections.withLockedValue { $0.open -= 1 }
    }

    /// Counts a TLS handshake that failed, and keeps it as the newest.
    func handshakeFailed(_ failure: HandshakeFailure) {
        let failure = FailedHandshake(at: Date(), kind: failure.kind, message: failure.message)
        connections.withLockedValue {
            $0.failedHandshakes += 1
            $0.lastFailedHandshake = failure
        }
    }

    /// Adds control frames a connection sent.
    func controlFramesSent(_ sent: HTTP2FrameCounts) {
        connections.withLockedValue { $0.controlFrames.add(sent) }
    }

    /// The connections' counts now, read together.
    var connectionCounts: ConnectionCounts { connections.withLockedValue { $0 } }
    /// Control frames the APNs connections sent since start, by type (all connections together).
    public var controlFramesSent: HTTP2FrameCounts { connections.withLockedValue { $0.controlFrames } }
    /// Connections open now.
    public var openConnections: Int { connections.withLockedValue { $0.open } }
    /// Connections accepted since start.
    public var totalConnections: Int { connections.withLockedValue { $0.total } }
    /// TLS handshakes that failed since start.
    public var failedHandshakes: Int { connections.withLockedValue { $0.failedHandshakes } }

    /// Requests recorded since start (clearing the journal does not reset it).
    var recordedRequests: UInt64 { requests.withLockedValue { $0.total } }
    /// Records the journal dropped for its capacity or byte budget since it was last cleared.
    var droppedRecords: UInt64 { requests.withLockedValue { $0.dropped } }

    /// Runs `body` on the request counts under their lock. The journal calls it under its own lock, so that the
    /// counts change with the records and a reader holding the journal's lock sees them agree.
    func countingRequests<T>(_ body: (inout RequestCounts) -> T) -> T {
        requests.withLockedValue { body(&$0) }
    }

    /// What `GET /v1/stats` answers: the requests since `journal` (which counts into these metrics) was last
    /// cleared, its records and totals read under its lock with the counts, and the connections now.
    func stats(of journal: Journal) -> MockAPNsStats {
        var stats = journal.withRequestCounts { kept, counts in counts.stats(recordsKept: kept) }
        let connections = connectionCounts
        stats.openConnections = connections.open
        stats.totalConnections = connections.total
        stats.controlFramesSent = connections.controlFrames
        stats.failedHandshakes = connections.failedHandshakes
        stats.lastFailedHandshake = connections.lastFailedHandshake
        return stats
    }
}
