import MockAPNs

/// A server started by `withMockAPNs`: the control operations, and where the provider must connect.
///
/// Conforms to `MockAPNsControl` by forwarding to the in-process server, so every assertion helper works on it.
public struct MockAPNsTestServer: MockAPNsControlForwarding {
    /// The running server (engine, journal, world).
    public let server: MockAPNsServer
    /// The HTTP control API, when `withMockAPNs(controlAPI: true)` started one.
    public let controlAPI: MockAPNsControlAPI?

    /// The TLS (APNs) port bound.
    public var port: Int { server.port }
    /// `https://localhost:<port>`: the base URL to give the provider in place of `https://api.push.apple.com`.
    public var apnsURL: String { "https://localhost:\(server.port)" }
    /// The PEM of the CA the provider must trust (the test CA of `certs/` unless the scenario names another).
    public var caPEM: String? { server.caPEM }
    /// The journal of every request.
    public var journal: Journal { server.journal }
    /// The server's in-process control, which every control operation is handed to.
    public var forwardedControl: InProcessControl { server.control }

    /// Stops the control API (if any) and the server.
    func stop() async throws {
        try await controlAPI?.shutdown()
        try await server.shutdown(gracePeriod: .seconds(1))
    }
}
