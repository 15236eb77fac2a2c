/// A control that answers every operation by handing it to another: `MockAPNsServer` hands them to its
/// `InProcessControl`, as does `MockAPNsTestServer` (`MockAPNsTesting`). Each operation does what `MockAPNsControl` says.
public protocol MockAPNsControlForwarding: MockAPNsControl {
    /// The implementation the operations are handed to.
    associatedtype Forwarded: MockAPNsControl
    /// The control every operation is handed to.
    var forwardedControl: Forwarded { get }
}

extension MockAPNsControlForwarding {
    /// The journal records that match `query`, oldest first.
    public func records(_ query: JournalQuery) async throws -> [JournalRecord] {
        try await forwardedControl.records(query)
    }

    /// The record with sequence number `sequence`, or `nil`.
    public func record(sequence: UInt64) async throws -> JournalRecord? {
        try await forwardedControl.record(sequence: sequence)
    }

    /// Waits until `count` records match `query` or `timeout` passes.
    public func waitForRecords(_ query: JournalQuery, count: Int, timeout: Duration) async throws
        -> RecordWaitResult
    {
        try await forwardedControl.waitForRecords(query, count: count, timeout: timeout)
    }

    /// Forgets every journal record.
    public func clearRecords() async throws { try await forwardedControl.clearRecords() }

    /// Clears the journal and the Live Activities, puts `target` back in force and the clock at real time.
    public func reset(to target: ResetTarget) async throws { try await forwardedControl.reset(to: target) }

    /// The running scenario as a scenario document.
    public func scenario() async throws -> ScenarioSnapshot { try await forwardedControl.scenario() }

    /// Loads the scenario in `yaml`; an invalid one throws `ScenarioError` and changes nothing.
    public func loadScenario(yaml: String) async throws -> ScenarioSnapshot {
        try await forwardedControl.loadScenario(yaml: yaml)
    }

    /// Adds devices, or replaces those with the same token.
    public func addDevices(_ devices: [Device]) async throws { try await forwardedControl.addDevices(devices) }

    /// Marks `token` unregistered from now on (410 Unregistered).
    public func unregisterDevice(token: String) async throws -> Device {
        try await forwardedControl.unregisterDevice(token: token)
    }

    /// Removes `token` from the world.
    public func removeDevice(token: String) async throws { try await forwardedControl.removeDevice(token: token) }

    /// Adds scripted rules after the existing ones.
    public func addRules(_ rules: [ScriptedRule]) async throws { try await forwardedControl.addRules(rules) }

    /// Removes every scripted rule.
    public func clearRules() async throws { try await forwardedControl.clearRules() }

    /// Counts over the journal and the server's totals.
    public func ruleCounts() async throws -> [ScriptedRuleCount] { try await forwardedControl.ruleCounts() }
    public func stats() async throws -> MockAPNsStats { try await forwardedControl.stats() }

    /// The scenario's `expect:`, `unexpected:` and `checks:` against the journal as it is now, and the token uploads
    /// that failed (once they settled); the report's `description` is the readable verdict
    /// (`#expect(report.passed, "\(report)")`).
    public func verify() async throws -> VerifyReport { try await forwardedControl.verify() }

    /// The mock's clock.
    public func clock() async throws -> ClockReading { try await forwardedControl.clock() }

    /// Moves the mock's clock and answers it after the move.
    public func moveClock(_ move: ClockMove) async throws -> ClockReading { try await forwardedControl.moveClock(move) }

    /// The activities that match `query` at the mock's clock, in start order.
    public func activities(_ query: ActivityQuery) async throws -> [ActivitySnapshot] {
        try await forwardedControl.activities(query)
    }

    /// The activity with `id`, or `nil`.
    public func activity(id: String) async throws -> ActivitySnapshot? { try await forwardedControl.activity(id: id) }

    /// Waits until an activity matches `query` or `timeout` passes.
    public func waitForActivity(_ query: ActivityQuery, timeout: Duration) async throws -> ActivitySnapshot? {
        try await forwardedControl.waitForActivity(query, timeout: timeout)
    }

    /// Gives the running activity `id` a new update token.
    public func rotateActivityToken(id: String) async throws -> ActivitySnapshot {
        try await forwardedControl.rotateActivityToken(id: id)
    }

    /// The person swipes the activity `id` away.
    public func dismissActivity(id: String) async throws -> ActivitySnapshot {
        try await forwardedControl.dismissActivity(id: id)
    }

    /// Starts an activity as the app would.
    public func startActivity(_ start: ActivityStart) async throws -> ActivitySnapshot {
        try await forwardedControl.startActivity(start)
    }

    /// Every simulated phone the mock knows.
    public func phones() async throws -> [PhoneSnapshot] { try await forwardedControl.phones() }

    /// The phone `id` (a phone id or one of its tokens), or `nil`.
    public func phone(id: String) async throws -> PhoneSnapshot? { try await forwardedControl.phone(id: id) }

    /// Changes the phone `id` as its person would.
    public func updatePhone(id: String, _ fields: JSONValue) async throws -> PhoneSnapshot {
        try await forwardedControl.updatePhone(id: id, fields)
    }

    /// Changes the app `bundleID` on the phone `id`.
    public func updatePhoneApp(id: String, bundleID: String, _ fields: JSONValue) async throws -> PhoneSnapshot {
        try await forwardedControl.updatePhoneApp(id: id, bundleID: bundleID, fields)
    }

    /// Restarts the phone `id`.
    public func restartPhone(id: String) async throws -> PhoneSnapshot {
        try await forwardedControl.restartPhone(id: id)
    }

    /// Every live broadcast channel.
    public func channels() async throws -> [ChannelSnapshot] { try await forwardedControl.channels() }

    /// The live broadcast channel `id`, or `nil`.
    public func channel(id: String) async throws -> ChannelSnapshot? { try await forwardedControl.channel(id: id) }
}
