import Foundation
import NIOConcurrencyHelpers

/// The in-process implementation of the control operations, over a running server's engine; the HTTP control API
/// calls these, and `MockAPNsServer` answers them through its `control`.
///
/// It holds what the operations keep between calls (the scenario loaded at run time), so that the server keeps
/// none of it.
public final class InProcessControl: MockAPNsControl {
    /// The engine the operations read and change: world, rules, journal, clock, activities.
    let engine: MockAPNsEngine
    /// The scenario the server started with: its listen settings and limits stay in force, and a reset returns to
    /// it (unless told to keep the one loaded at run time, `ResetTarget.loaded`).
    let scenario: Scenario
    /// When the server started listening (the clock's time): where `verify()` counts `within:` from by default.
    let startedAt: Date
    /// The scenario loaded at run time, which `reset(to: .loaded)` returns to; `nil` while the starting one runs.
    let loadedScenario = NIOLockedValueBox<Scenario?>(nil)
    /// Where the server's APNs port is and which CA it uses, for `curl(_:)`.
    let endpoint: APNsEndpoint
    private let readOnly = NIOLockedValueBox<String?>(nil)

    /// The control of a server running `scenario` on `engine` since `startedAt`, its APNs port at `endpoint`.
    init(engine: MockAPNsEngine, scenario: Scenario, startedAt: Date, endpoint: APNsEndpoint) {
        self.engine = engine
        self.scenario = scenario
        self.startedAt = startedAt
        self.endpoint = endpoint
    }

    /// Why the operations that change the journal refuse (409 `read-only: <reason>`), or `nil` when they do not: set
    /// by a front end that shows a journal it must leave as it is (`mock-apns inspect`). `replay(_:edit:)` checks it.
    public var readOnlyReason: String? {
        get { readOnly.withLockedValue { $0 } }
        set { readOnly.withLockedValue { $0 = newValue } }
    }

    /// The journal of every request.
    var journal: Journal { engine.journal }

    /// The scenario running now: the one loaded at run time, else the one the server started with.
    public var currentScenario: Scenario { loadedScenario.withLockedValue { $0 } ?? scenario }

    /// The journal records that match `query`, oldest first; a relative `after` or `before` is read on the mock's
    /// clock.
    public func records(_ query: JournalQuery) async throws -> [JournalRecord] {
        journal.records(matching: resolvingTimes(query))
    }

    /// `query` with its `after` and `before` fixed against the mock's clock, which the records' times come from.
    func resolvingTimes(_ query: JournalQuery) -> JournalQuery {
        query.resolvingTimes(now: engine.clock.now())
    }

    /// The record with sequence number `sequence`, or `nil`.
    public func record(sequence: UInt64) async throws -> JournalRecord? {
        sequence == 0 ? nil : journal.records(after: sequence - 1).first { $0.sequence == sequence }
    }

    /// Waits until `count` records match `query` or `timeout` passes.
    public func waitForRecords(_ query: JournalQuery, count: Int, timeout: Duration) async throws
        -> RecordWaitResult
    {
        guard count >= 1 else { throw MockAPNsControlError.badRequest("count must be at least 1, got \(count)") }
        return await journal.waitForRecords(matching: resolvingTimes(query), count: count, timeout: timeout)
    }

    /// Forgets every journal record.
    public func clearRecords() async throws {
        journal.clear()
    }

    /// Clears the journal and the Live Activities, restores the world and rules of `target` (the starting scenario,
    /// or the one loaded last), and sets the clock back to real time (forgetting the provider tokens' iat values
    /// seen).
    public func reset(to target: ResetTarget) async throws {
        if target == .started { loadedScenario.withLockedValue { $0 = nil } }
        try movableClock?.move(.reset)
        engine.providerTokenClock.forget()
        restoreScenario()
    }

    /// Clears the journal and the Live Activities and restores the loaded scenario's world and rules; the clock stays
    /// where it is.
    func restoreScenario() {
        engine.apply(currentScenario)
        journal.clear()
    }

    /// The running scenario as a scenario document.
    public func scenario() async throws -> ScenarioSnapshot {
        let running = currentScenario
        var snapshot = ScenarioSnapshot(
            name: running.name, world: engine.world, rules: engine.rules.rules, declarations: running)
        // The limits in force (flags included): they belong to the listeners and stay as the server started.
        if case .object(var members) = snapshot.document {
            members.append(("limits", self.scenario.limits.scenarioJSON))
            snapshot.document = .object(members)
        }
        return snapshot
    }

    /// Adds devices, or replaces those with the same token. A `live-activity` device with an `attributesType` (one
    /// the running scenario declares) gets a running activity behind it, as in a scenario.
    public func addDevices(_ devices: [Device]) async throws {
        let types = currentScenario.activityTypes
        for device in devices where device.kind == .liveActivity {
            guard let name = device.attributesType, types[name] == nil else { continue }
            let declared = types.keys.sorted()
            throw MockAPNsControlError.badRequest(
                "attributesType '\(name)' of device \(device.token) is not a type the running scenario declares"
                    + NameSuggestion.hint(for: name, among: declared)
                    + (declared.isEmpty ? "; it declares none" : "; declared: \(declared.joined(separator: ", "))"))
        }
        let environment = engine.world.environment
        for device in devices {
            guard let channel = device.channel,
                !engine.isChannel(channel, of: device.bundleID, in: device.environment ?? environment)
            else { continue }
            throw MockAPNsControlError.badRequest(
                "channel '\(channel)' of device \(device.token) is not a live channel of its app and environment;"
                    + " GET /v1/channels lists the live ones")
        }
        let now = engine.clock.now()
        for activity in engine.activities.startDeclared(devices, now: now) {
            if let channel = activity.channel { engine.catchUp(activityID: activity.id, channelID: channel, now: now) }
        }
        engine.updateWorld { world in
            for device in devices { world.devices[device.token] = device }
        }
    }

    /// Marks `token` unregistered from now on (410 Unregistered).
    ///
    /// A token the world does not list but accepts (a lenient world takes any token) is added as the pushes it
    /// got show it: the kind of its newest push (`voip`, `liveactivity`; else an app token) or of the activity the
    /// phone issued it for, and no app, so that the next push of the same kind gets the 410.
    public func unregisterDevice(token: String) async throws -> Device {
        let token = try Self.checkedToken(token)
        let now = engine.clock.now()
        let undeclared = engine.world.devices[token] == nil ? undeclaredDevice(token) : nil
        var updated: Device?
        engine.updateWorld { world in
            guard var device = world.devices[token] ?? (world.devicePolicy == .lenient ? undeclared : nil) else {
                return
            }
            device.unregisteredAt = now
            device.expiredAt = nil
            world.devices[token] = device
            updated = device
        }
        guard let updated else { throw Self.unknownDevice(token) }
        return updated
    }

    /// Removes `token` from the world.
    public func removeDevice(token: String) async throws {
        let token = try Self.checkedToken(token)
        var removed = false
        engine.updateWorld { world in removed = world.devices.removeValue(forKey: token) != nil }
        guard removed else { throw Self.unknownDevice(token) }
        // A declared live-activity device's activity goes with it: its token is no longer an update token.
        engine.activities.removeActivity(updatedBy: DeviceToken(validated: token))
    }

    /// Adds scripted rules after the existing ones.
    public func addRules(_ rules: [ScriptedRule]) async throws {
        let existing = Set(engine.rules.rules.map(\.name))
        var added = Set<String>()
        var named: [ScriptedRule] = []
        for (index, rule) in rules.enumerated() {
            var rule = rule
            if rule.match.device != nil {
                // The scenario loader refuses it too: such a rule could never apply.
                throw MockAPNsControlError.badRequest(
                    "rule '\(rule.name)' matches on device, which a rule cannot do: the phone decides after APNs "
                        + "answers, and the rule decides that answer; expect it with expectPush(device:) instead")
            }
            if rule.match.issuedToken != nil {
                throw MockAPNsControlError.badRequest(
                    "rule '\(rule.name)' matches on issuedFrom, which a rule cannot do: the token is found in the "
                        + "run's records when the run is checked; name the token itself")
            }
            if rule.name == "rule \(index + 1)", existing.contains(rule.name) {
                // A default name from the loader; number it after the rules already running.
                rule.name = "rule \(existing.count + index + 1)"
            }
            if existing.contains(rule.name) || !added.insert(rule.name).inserted {
                throw MockAPNsControlError(
                    status: 409,
                    "a rule named '\(rule.name)' already exists; give this one another name, or DELETE /v1/rules first"
                )
            }
            named.append(rule)
        }
        engine.rules.addRules(named)
    }

    /// Removes every scripted rule.
    public func clearRules() async throws {
        engine.rules.replaceRules([])
    }

    /// Counts over the journal and the server's totals.
    public func ruleCounts() async throws -> [ScriptedRuleCount] {
        engine.rules.counts
    }

    public func stats() async throws -> MockAPNsStats {
        journal.metrics.stats(of: journal)
    }

    /// `token` lower-cased, or a 400 when it is not a device token (`DeviceToken`'s rule).
    static func checkedToken(_ token: String) throws(MockAPNsControlError) -> String {
        guard let valid = DeviceToken(token) else {
            throw .badRequest("'\(token)' is not a device token: give an even number of hex digits")
        }
        return valid.hex
    }

    private static func unknownDevice(_ token: String) -> MockAPNsControlError {
        .notFound(
            "no device \(token) in the world, and the world is strict (it refuses tokens it does not list); add it "
                + "first: addDevices([Device(token:)]) in Swift, POST /v1/devices {\"token\": \"\(token)\"} over "
                + "HTTP (give \"state\": \"unregistered\" to add it unregistered at once)")
    }

    /// `token` as a device of the kind its pushes show: issued by the phone for an activity, or the type of the
    /// newest push the journal holds for it (`voip`, `liveactivity`), else an app token; of no particular app.
    private func undeclaredDevice(_ token: String) -> Device {
        if engine.activities.issuedToken(DeviceToken(validated: token)) != nil {
            return Device(token: token, kind: .liveActivity)
        }
        let newest = engine.journal.records().last { $0.kind == .devicePush && $0.deviceToken?.lowercased() == token }
        let kind: Device.Kind =
            switch newest?.pushType {
            case "voip": .voip
            case "liveactivity": .liveActivity
            default: .app
            }
        return Device(token: token, kind: kind)
    }
}
