import Logging
import NIOCore
import NIOHTTP1

/// Logs, at most once per 10 s, that the control API got bytes it cannot read as HTTP/1.1 — most often a client
/// using `https://` (the client then reports "wrong version number"): the control API speaks plain `http://`.
final class ControlTLSHint: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let log: RateLimitedLog
    private let logger: Logger
    private let address: @Sendable () -> String

    /// A hint for one connection to the control API, whose `host:port` `address` gives.
    init(log: RateLimitedLog, logger: Logger, address: @escaping @Sendable () -> String) {
        self.log = log
        self.logger = logger
        self.address = address
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is HTTPParserError {
            log.log(
                logger, kind: "control-not-http",
                "the control API got a request that is not HTTP/1.1 (\(error)): it speaks plain HTTP, "
                    + "not HTTPS — use http://\(address())")
        }
        context.fireErrorCaught(error)
    }
}
