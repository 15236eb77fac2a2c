import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The cap on connections open at once on one listener (`limits.maxConnections`): one more is accepted and
/// closed at once, with a rate-limited log line that names the setting to raise.
final class ConnectionCap: Sendable {
    /// The output a connection may have waiting before the server stops reading from it (`ConnectionGuard`):
    /// reading resumes below 64 KiB. Far above what a client that reads its answers ever leaves unsent.
    static let writeBufferWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 64 * 1024, high: 256 * 1024)

    /// The most connections open at once.
    let limit: Int
    private let open = NIOLockedValueBox(0)

    /// A cap of `limit` connections.
    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection in, or returns `false` when `limit` are open already.
    func admit() -> Bool {
        open.withLockedValue { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    /// Counts an admitted connection out.
    func release() {
        open.withLockedValue { $0 -= 1 }
    }

    /// Connections open now.
    var count: Int { open.withLockedValue { $0 } }

    /// Says, at most once per 10 s, that a connection was refused and what to raise.
    func logRefusal(_ log: RateLimitedLog, logger: Logger, port: Int?) {
        log.log(
            logger, level: .warning, kind: "max-connections",
            "refused a connection: \(limit) connections are open on port \(port.map(String.init) ?? "?") already"
                + " (raise limits.maxConnections or --max-connections if your clients need more)")
    }

    /// Closes a refused connection as soon as it is active.
    final class CloseAtOnce: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        func channelActive(context: ChannelHandlerContext) {
            context.close(promise: nil)
        }
    }
}
