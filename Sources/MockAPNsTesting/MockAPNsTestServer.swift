import MockAPNs

/// A server started by `withMockAPNs`: the control operations, and where the provider must connect.
///
/// Conforms to `MockAPNsControl` by forwarding to the in-process server, so every assertion helper works on it.
public struct MockAPNsTestServer: MockAPNsControl {
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

    /// Stops the control API (if any) and the server.
    func stop() async throws {
        try await controlAPI?.shutdown()
        try await server.shutdown(gracePeriod: .seconds(1))
    }

    /// The journal records that match `query`, oldest first.
    public func records(_ query: JournalQuery) async throws -> [JournalRecord] { try await server.records(query) }
    /// The record with sequence number `sequence`, or `nil`.
    public func record(sequence: UInt64) async throws -> JournalRecord? {
        try await server.record(sequence: sequence)
    }
    /// Waits until `count` records match `query` or `timeout` passes.
    public func waitForRecords(_ query: JournalQuery, count: Int, timeout: Duration) async throws
        -> RecordWaitResult
    { try await server.waitForRecords(query, count: count, timeout: timeout) }
    /// Forgets every journal record.
    public func clearRecords() async throws { try await server.clearRecords() }
    /// Clears the journal and restores the loaded scenario's world and rules.
    public func reset() async throws { try await server.reset() }
    /// The running scenario as a scenario document.
    public func scenario() async throws -> ScenarioSnapshot { try await server.scenario() }
    /// Loads the scenario in `yaml`; an invalid one throws `ScenarioError` and changes nothing.
    public func loadScenario(yaml: String) async throws -> ScenarioSnapshot {
        try await server.loadScenario(yaml: yaml)
    }
    /// Adds devices, or replaces those with the same token.
    public func addDevices(_ devices: [Device]) async throws { try await server.addDevices(devices) }
    /// Marks `token` unregistered from now on (410 Unregistered).
    public func unregisterDevice(token: String) async throws -> Device {
        try await server.unregisterDevice(token: token)
    }
    /// Removes `token` from the world.
    public func removeDevice(token: String) async throws { try await server.removeDevice(token: token) }
    /// Adds scripted rules after the existing ones.
    public func addRules(_ rules: [ScriptedRule]) async throws { try await server.addRules(rules) }
    /// Removes every scripted rule.
    public func clearRules() async throws { try await server.clearRules() }
    /// Counts over the journal and the server's totals.
    public func stats() async throws -> MockAPNsStats { try await server.stats() }

    /// The scenario's `expect:`, `unexpected:` and `checks:` against the journal as it is now, and the token uploads
    /// that failed (once they settled); the report's `description` is the readable verdict
    /// (`#expect(report.passed, "\(report)")`).
    public func verify() async throws -> VerifyReport { try await server.verify() }
}
