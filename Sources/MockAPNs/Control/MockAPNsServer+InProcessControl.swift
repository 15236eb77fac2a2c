import Foundation

/// The server answers the control operations itself, through its `control`: `try await server.records(query)`.
/// Each one is `InProcessControl`'s, which says what it does.
extension MockAPNsServer: MockAPNsControl {
    /// The scenario running now: the one loaded at run time, else the one the server started with.
    public var currentScenario: Scenario { control.currentScenario }

    /// The folder relative paths in a scenario loaded at run time start from (`InProcessControl`'s).
    public var scenarioBaseDirectory: String { control.scenarioBaseDirectory }

    /// The journal records that match `query`, oldest first.
    public func records(_ query: JournalQuery) async throws -> [JournalRecord] {
        try await control.records(query)
    }

    /// The record with sequence number `sequence`, or `nil`.
    public func record(sequence: UInt64) async throws -> JournalRecord? {
        try await control.record(sequence: sequence)
    }

    /// Waits until `count` records match `query` or `timeout` passes.
    public func waitForRecords(_ query: JournalQuery, count: Int, timeout: Duration) async throws
        -> RecordWaitResult
    {
        try await control.waitForRecords(query, count: count, timeout: timeout)
    }

    /// Forgets every journal record.
    public func clearRecords() async throws { try await control.clearRecords() }

    /// Clears the journal and the Live Activities, puts the loaded scenario back in force and the clock at real time.
    public func reset() async throws { try await control.reset() }

    /// The running scenario as a scenario document.
    public func scenario() async throws -> ScenarioSnapshot { try await control.scenario() }

    /// Loads the scenario in `yaml` with relative paths resolved against `scenarioBaseDirectory`.
    public func loadScenario(yaml: String) async throws -> ScenarioSnapshot {
        try await control.loadScenario(yaml: yaml)
    }

    /// Loads the scenario in `yaml`, relative paths in it resolved against `baseDirectory`.
    public func loadScenario(yaml: String, baseDirectory: String) async throws -> ScenarioSnapshot {
        try await control.loadScenario(yaml: yaml, baseDirectory: baseDirectory)
    }

    /// Adds devices, or replaces those with the same token.
    public func addDevices(_ devices: [Device]) async throws { try await control.addDevices(devices) }

    /// Marks `token` unregistered from now on (410 Unregistered).
    public func unregisterDevice(token: String) async throws -> Device {
        try await control.unregisterDevice(token: token)
    }

    /// Removes `token` from the world.
    public func removeDevice(token: String) async throws { try await control.removeDevice(token: token) }

    /// Adds scripted rules after the existing ones.
    public func addRules(_ rules: [ScriptedRule]) async throws { try await control.addRules(rules) }

    /// Removes every scripted rule.
    public func clearRules() async throws { try await control.clearRules() }

    /// Counts over the journal and the server's totals.
    public func stats() async throws -> MockAPNsStats { try await control.stats() }

    /// The running scenario's expectations and checks against the journal as it is now, `within:` counted from
    /// `startedAt` (`nil`: the server's start).
    public func verify(startedAt: Date? = nil) -> VerifyReport { control.verify(startedAt: startedAt) }

    /// `verify(startedAt:)` from the server's start, once the token uploads settled: what `POST /v1/verify` answers.
    public func verify() async throws -> VerifyReport { try await control.verify() }

    /// The mock's clock.
    public func clock() async throws -> ClockReading { try await control.clock() }

    /// Moves the mock's clock and answers it after the move.
    public func moveClock(_ move: ClockMove) async throws -> ClockReading { try await control.moveClock(move) }

    /// The activities that match `query` at the mock's clock, in start order.
    public func activities(_ query: ActivityQuery) async throws -> [ActivitySnapshot] {
        try await control.activities(query)
    }

    /// The activity with `id`, or `nil`.
    public func activity(id: String) async throws -> ActivitySnapshot? { try await control.activity(id: id) }

    /// Waits until an activity matches `query` or `timeout` passes.
    public func waitForActivity(_ query: ActivityQuery, timeout: Duration) async throws -> ActivitySnapshot? {
        try await control.waitForActivity(query, timeout: timeout)
    }

    /// Gives the running activity `id` a new update token.
    public func rotateActivityToken(id: String) async throws -> ActivitySnapshot {
        try await control.rotateActivityToken(id: id)
    }

    /// The person swipes the activity `id` away.
    public func dismissActivity(id: String) async throws -> ActivitySnapshot {
        try await control.dismissActivity(id: id)
    }

    /// Starts an activity as the app would.
    public func startActivity(_ start: ActivityStart) async throws -> ActivitySnapshot {
        try await control.startActivity(start)
    }
}
