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

    /// The server of the test running now, under the `.mockAPNs` trait (`@Test(.mockAPNs)`); `nil` elsewhere.
    @TaskLocal public static var current: MockAPNsTestServer?

    /// What a provider under test needs, in one value: the URL, the CA to trust, and the key to sign its provider
    /// tokens with (the public test key of `certs/`, which the default scenario trusts).
    public var provider: ProviderConfiguration {
        ProviderConfiguration(
            apnsURL: apnsURL, caPEM: caPEM ?? TestCredentials.caPEM, signingKeyPEM: TestCredentials.signingKeyPEM,
            keyID: TestCredentials.keyID, teamID: TestCredentials.teamID)
    }

    /// Stops the control API (if any) and the server.
    func stop() async throws {
        try await controlAPI?.shutdown()
        try await server.shutdown(gracePeriod: .seconds(1))
    }
}

/// Where a provider under test connects and what it signs with: `MockAPNsTestServer.provider`.
///
/// The key is `TestCredentials`' (the `.p8` in `certs/`, built in): anyone can read it, so it is for tests only. A
/// scenario with keys of its own must be given the matching `.p8` by the test instead.
public struct ProviderConfiguration: Sendable, Hashable {
    /// `https://localhost:<port>`, in place of `https://api.push.apple.com`.
    public var apnsURL: String
    /// The PEM of the CA to trust.
    public var caPEM: String
    /// The PEM of the ES256 key (a `.p8` file's text) to sign provider tokens with.
    public var signingKeyPEM: String
    /// The key id (`kid`) of that key.
    public var keyID: String
    /// The team id (`iss`).
    public var teamID: String
}
