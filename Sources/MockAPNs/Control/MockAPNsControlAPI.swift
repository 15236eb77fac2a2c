import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// The HTTP control API of a running server: HTTP/1.1 + JSON on its own port (Hummingbird).
///
/// A thin front end over the server's in-process `MockAPNsControl` operations, plus `/metrics` and `/healthz`, and
/// the inspector's page at `/` (`InspectorRoutes`).
/// Bound to 127.0.0.1 unless told otherwise, because it can change what the mock answers.
///
/// ```swift
/// let server = try await MockAPNsServer.start(scenario: .embeddedDefault(port: 0))
/// let control = try await MockAPNsControlAPI.start(server: server, port: 0)
/// print(control.url)      // http://127.0.0.1:<port>
/// try await control.shutdown()
/// try await server.shutdown()
/// ```
public final class MockAPNsControlAPI: Sendable {
    /// The port actually bound.
    public let port: Int
    /// The address bound.
    public let host: String
    /// The server it controls.
    public let server: MockAPNsServer

    private let listener: ControlListener
    private let longRequests: ControlShutdown
    private let stopped = NIOLockedValueBox(false)

    private init(
        host: String, server: MockAPNsServer, listener: ControlListener, longRequests: ControlShutdown
    ) {
        self.port = listener.port
        self.host = host
        self.server = server
        self.listener = listener
        self.longRequests = longRequests
    }

    /// `http://host:port`, for clients.
    public var url: String { Self.url(host: host, port: port) }

    /// `http://host:port` for a control API bound to `host` and `port`: a wildcard address reads as loopback.
    static func url(host: String, port: Int) -> String {
        let shown = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        return shown.contains(":") ? "http://[\(shown)]:\(port)" : "http://\(shown):\(port)"
    }

    /// Binds the control API for `server` and starts answering.
    ///
    /// - Parameters:
    ///   - host: the address to bind; keep the loopback default unless the API must be reached from elsewhere.
    ///   - port: the port; 0 picks a free one (read it from `port`).
    ///   - token: when given, every route but `/healthz` and the inspector's page and assets needs
    ///     `Authorization: Bearer <token>`.
    ///   - info: what `GET /v1/info` says; by default a live mock with no journal file, not under `run`.
    public static func start(
        server: MockAPNsServer, host: String = "127.0.0.1", port: Int = ControlRoutes.defaultPort,
        token: String? = nil, info: InspectorInfo? = nil, logger: Logger = Logger(label: "mock-apns.control")
    ) async throws -> MockAPNsControlAPI {
        let longRequests = ControlShutdown()
        let boundPort = NIOLockedValueBox(port)
        let router = Router()
        router.add(middleware: CrossSiteGuard(host: host) { boundPort.withLockedValue { $0 } })
        router.add(middleware: ControlErrorMiddleware(token: token))
        ControlHandlers(server: server, longRequests: longRequests).register(on: router)
        InspectorRoutes(info: info ?? .live(server: server)) {
            url(host: host, port: boundPort.withLockedValue { $0 })
        }.register(on: router)

        let listener = try await ControlListener.start(
            router: router, host: host, port: port, boundPort: boundPort, logger: logger)
        return MockAPNsControlAPI(host: host, server: server, listener: listener, longRequests: longRequests)
    }

    /// Ends open streams and waits, stops accepting, and lets the requests in flight finish.
    public func shutdown() async throws {
        let alreadyStopped = stopped.withLockedValue { value in
            defer { value = true }
            return value
        }
        guard !alreadyStopped else { return }
        longRequests.stopAll()
        try await listener.shutdown()
    }
}
