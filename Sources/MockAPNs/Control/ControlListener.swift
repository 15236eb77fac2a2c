import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// The HTTP/1.1 listener of a control router (Hummingbird): binds, tells the bound port, and stops gracefully.
///
/// Shared by a running mock's control API (`MockAPNsControlAPI`) and a journal file's inspector
/// (`JournalFileInspector`), so both bind, report a port in use and stop the same way.
final class ControlListener: Sendable {
    /// The port actually bound.
    let port: Int

    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.running = running
    }

    /// Binds `router` to `host` and `port` (0 picks a free one) and starts answering; `boundPort` is set to the
    /// port bound before the first request is served (routes built earlier read it). Throws a `ListenFailure`
    /// of `role` when it cannot listen.
    static func start(
        router: Router<BasicRequestContext>, host: String, port: Int, boundPort: NIOLockedValueBox<Int>,
        role: ListenFailure.Role = .control, logger: Logger
    ) async throws -> ControlListener {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        // Hummingbird's one info line, "Server started and listening", repeats the URL that the banners print;
        // keep it for debug and trace.
        var applicationLogger = logger
        if logger.logLevel == .info { applicationLogger.logLevel = .notice }
        let hintLog = RateLimitedLog()
        let application = Application(
            router: router,
            server: .http1(
                configuration: .init(additionalChannelHandlers: [
                    ControlTLSHint(log: hintLog, logger: logger) { "\(host):\(boundPort.withLockedValue { $0 })" }
                ])),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "mock-apns"),
            onServerRunning: { channel in
                boundPort.withLockedValue { $0 = channel.localAddress?.port ?? port }
                portContinuation.yield(channel.localAddress?.port ?? port)
                portContinuation.finish()
            },
            logger: applicationLogger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [application], logger: logger))
        let failure = NIOLockedValueBox<(any Error)?>(nil)
        let running = Task {
            do {
                try await group.run()
            } catch {
                failure.withLockedValue { $0 = error }
                portContinuation.finish()
                throw error
            }
            portContinuation.finish()
        }
        var bound: Int?
        for await value in ports {
            bound = value
            break
        }
        guard let bound else {
            let error = failure.withLockedValue { $0 }
            throw ListenFailure(
                role: role, host: host, port: port,
                cause: error.map { ListenFailure.cause(of: $0) }
                    ?? .other("the HTTP server stopped before it listened"))
        }
        return ControlListener(port: bound, group: group, running: running)
    }

    /// Stops accepting and lets the requests in flight finish.
    func shutdown() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }
}
