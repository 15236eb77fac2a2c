/// The operations that inspect and steer a running mock: one protocol, two implementations.
///
/// As in WireMock, the same operations exist in-process (`InProcessControl`; `MockAPNsServer` conforms through
/// it) and over HTTP (`MockAPNsControlClient` in the `MockAPNsClient` product talks to the control API of a server
/// running elsewhere). Tests and tools written against this protocol work with either; the HTTP control API is a thin
/// front end over the in-process implementation, so both answer the same way.
///
/// A journal entry is a *record* here, as in `Journal`; only the HTTP routes keep the name `/v1/requests`.
public protocol MockAPNsControl: Sendable {
    /// The journal records that match `query`, oldest first.
    func records(_ query: JournalQuery) async throws -> [JournalRecord]

    /// The record with sequence number `sequence`, or `nil` when there is none (never recorded, or dropped).
    func record(sequence: UInt64) async throws -> JournalRecord?

    /// Waits until `count` records match `query` or `timeout` passes.
    ///
    /// Answers as soon as the matching record is appended (journal observers, no polling). On timeout the result
    /// is not satisfied and carries what was found and the nearest misses, so a failing test can say why.
    func waitForRecords(_ query: JournalQuery, count: Int, timeout: Duration) async throws -> RecordWaitResult

    /// Forgets every journal record (sequence numbers go on).
    func clearRecords() async throws

    /// Clears the journal and puts the world and the rules back as `target` has them: the scenario the server
    /// started with (`.started`, which forgets one loaded at run time) or the one loaded last (`.loaded`).
    ///
    /// Devices and rules added at run time are dropped and every rule's counters start over. The clock goes back
    /// to real time (offset zero), as `moveClock(.reset)` does.
    func reset(to target: ResetTarget) async throws

    /// The scenario running now, with the changes made at run time.
    func scenario() async throws -> ScenarioSnapshot

    /// Replaces the world and rules with the scenario in `yaml` (JSON is YAML too), and clears the journal.
    ///
    /// An invalid document throws a `ScenarioError` naming the line, column and field; the running scenario
    /// stays. Listen settings and the journal capacity cannot change at run time and are ignored. The clock stays
    /// where it is (unlike `reset()`).
    func loadScenario(yaml: String) async throws -> ScenarioSnapshot

    /// Adds devices (or replaces those with the same token), from the next request on.
    func addDevices(_ devices: [Device]) async throws

    /// Marks `token` unregistered from now on: its pushes get 410 Unregistered with that time.
    ///
    /// Throws `MockAPNsControlError` (404) when the world has no such device.
    func unregisterDevice(token: String) async throws -> Device

    /// Removes `token` from the world. Throws `MockAPNsControlError` (404) when there is no such device.
    func removeDevice(token: String) async throws

    /// Adds scripted rules after the existing ones.
    func addRules(_ rules: [ScriptedRule]) async throws

    /// Removes every scripted rule.
    func clearRules() async throws

    /// The scripted rules in order, each with how many requests it matched and decided (`GET /v1/rules`).
    func ruleCounts() async throws -> [ScriptedRuleCount]

    /// Counts over the requests recorded since the journal was last cleared, and the server's totals.
    func stats() async throws -> MockAPNsStats

    /// The running scenario's `expect:`, `unexpected:` and `checks:` checked against the journal as it is now,
    /// `within:` counted from the server's start (`POST /v1/verify`).
    func verify() async throws -> VerifyReport

    /// The mock's clock: the time it records and decides with, and how far that is from real time.
    func clock() async throws -> ClockReading

    /// Moves the mock's clock (advance, set, reset) and answers it after the move; a move that would take it more
    /// than `ClockMove.maximumOffset` from real time is refused (400) and changes nothing.
    func moveClock(_ move: ClockMove) async throws -> ClockReading

    /// The simulated phone's Live Activities that match `query` at the mock's clock, in start order.
    func activities(_ query: ActivityQuery) async throws -> [ActivitySnapshot]

    /// The activity with `id`, or `nil` when there is none (never started, or cleared by a reset). `id` may be a
    /// unique prefix of the id, in any case (`0c6f1a2b`, as `mock-apns activities` prints it; at least
    /// `ActivityRegistry.minimumIDPrefix` characters); an ambiguous or too short prefix throws
    /// `MockAPNsControlError` (400) naming the candidates. The same goes for `rotateActivityToken` and
    /// `dismissActivity`.
    func activity(id: String) async throws -> ActivitySnapshot?

    /// Waits until an activity matches `query` or `timeout` passes; answers the first that does, or `nil`.
    ///
    /// Answers as soon as the change that makes one match happens (registry watchers, no polling). A state the
    /// clock alone reaches (ended after 8 hours) counts when the wait starts, not while it waits.
    func waitForActivity(_ query: ActivityQuery, timeout: Duration) async throws -> ActivitySnapshot?

    /// Gives the running activity `id` a new update token; the old one stops being an update token. Throws
    /// `MockAPNsControlError` (404 unknown, 409 no longer running).
    func rotateActivityToken(id: String) async throws -> ActivitySnapshot

    /// The person swipes the activity `id` away: dismissed from now on, later pushes ignored. Throws
    /// `MockAPNsControlError` (404 unknown, 409 already dismissed).
    func dismissActivity(id: String) async throws -> ActivitySnapshot

    /// Starts an activity as the app itself would; throws `MockAPNsControlError` (400) when the type is not
    /// declared or a part does not decode as the type's.
    func startActivity(_ start: ActivityStart) async throws -> ActivitySnapshot

    /// Sends record `sequence`'s request again through the APNs port's decision path (scripted rules, validator,
    /// phone, journal), `edit` replacing its headers, its payload or both, and answers the new record: `replayOf`
    /// set, on no connection (`POST /v1/requests/{seq}/replay`). Throws `MockAPNsControlError`: 404 no such record,
    /// 400 an edit out of bounds, 409 read-only, 422 a record that cannot be sent again as it was.
    func replay(_ sequence: UInt64, edit: ReplayEdit?) async throws -> JournalRecord

    /// Record `sequence` as one shell command that sends it again to the mock's APNs port with curl
    /// (`CurlCommand`, `GET /v1/requests/{seq}/curl`). Throws `MockAPNsControlError`: 404 no such record, 422 a
    /// record of another kind.
    func curl(_ sequence: UInt64) async throws -> String

    /// The connections the server's history keeps or a record names, by id (`GET /v1/connections`).
    func connections() async throws -> [ConnectionSummary]

    /// Connection `id`, or `nil` when neither the history nor a record knows it (`GET /v1/connections/{id}`).
    func connection(id: UInt64) async throws -> ConnectionSummary?

    /// Every simulated phone the mock knows (the declared ones, each declared device's, and each implicit phone it
    /// keeps state for), with its state and what it shows (`GET /v1/phones`).
    func phones() async throws -> [PhoneSnapshot]

    /// The phone `id` (a phone id, or one of its device tokens), or `nil` when the mock knows none by it.
    func phone(id: String) async throws -> PhoneSnapshot?

    /// Changes the phone `id` as its person would: `fields` are those of a scenario's `phones.<id>` entry
    /// (`["online": false]`). Answers the phone after the change, which the journal records as a `phone` record.
    /// Throws `MockAPNsControlError` (400 naming an unknown field or value, 404 for an unknown phone).
    func updatePhone(id: String, _ fields: JSONValue) async throws -> PhoneSnapshot

    /// Changes the app `bundleID` on the phone `id`: `fields` are those of a scenario's `phones.<id>.apps.<bundle>`
    /// entry (`["state": "forceQuit"]`); as `updatePhone`.
    func updatePhoneApp(id: String, bundleID: String, _ fields: JSONValue) async throws -> PhoneSnapshot

    /// Restarts the phone `id` (`POST /v1/phones/{id}/restart`): its force-quit and foreground apps become
    /// `notRunning`; recorded as a `phone` record. Throws `MockAPNsControlError` (404 for an unknown phone).
    func restartPhone(id: String) async throws -> PhoneSnapshot

    /// Every live broadcast channel (declared, then created, oldest first), with the broadcasts it took and the
    /// message it keeps (`GET /v1/channels`).
    func channels() async throws -> [ChannelSnapshot]

    /// The live broadcast channel `id`, or `nil` when there is none (never created, or deleted)
    /// (`GET /v1/channels/{id}`).
    func channel(id: String) async throws -> ChannelSnapshot?
}

extension MockAPNsControl {
    /// Resets to the scenario the server started with: `reset(to: .started)`.
    public func reset() async throws { try await reset(to: .started) }
}
