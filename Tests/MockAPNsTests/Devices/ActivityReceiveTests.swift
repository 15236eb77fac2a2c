import Foundation
import Testing

@testable import MockAPNs

/// `ActivityRegistry.receive`: what the phone does with each accepted Live Activity push (live-activities.md §2).
@Suite("Activity receive")
struct ActivityReceiveTests {
    static let taxi = ActivitySchema(
        name: "mpushTaxiAttributes", attributes: [ActivityField("appName", .string), ActivityField("appLogo", .string)],
        contentState: [ActivityField("status", .optional(.string)), ActivityField("eta", .optional(.date))])
    static let types = ["mpushTaxiAttributes": taxi]
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let t = now.timeIntervalSince1970

    let registry = ActivityRegistry()

    /// A payload with `aps`.
    func payload(_ aps: [(String, JSONValue)]) -> JSONValue { .object([("aps", .object(aps))]) }

    /// A taxi start with `timestamp`, an alert and `input-push-token: 1`, changed by `change`.
    func startAPS(_ change: (inout [(String, JSONValue)]) -> Void = { _ in }) -> JSONValue {
        var aps: [(String, JSONValue)] = [
            ("event", "start"), ("timestamp", .number(String(Int(Self.t)))),
            ("attributes-type", "mpushTaxiAttributes"), ("attributes", ["appName": "Taxi", "appLogo": "l"]),
            ("content-state", ["status": "1"]), ("alert", ["title": "Ride"]), ("input-push-token", 1),
        ]
        change(&aps)
        return payload(aps)
    }

    func start(
        _ aps: JSONValue, type: String? = "mpushTaxiAttributes", at now: Date = now,
        settings: LiveActivitySettings = LiveActivitySettings()
    ) -> DeviceOutcome? {
        registry.receive(
            aps, for: .pushToStart(token: "p2s", attributesType: type), priority: 10, sequence: 1, now: now,
            types: Self.types, settings: settings)
    }

    func send(
        _ token: String, _ event: String, timestamp: Double, state: JSONValue? = ["status": "2"],
        extra: [(String, JSONValue)] = [], priority: Int = 10, at now: Date = now,
        settings: LiveActivitySettings = LiveActivitySettings()
    ) -> DeviceOutcome? {
        var aps: [(String, JSONValue)] = [("event", .string(event)), ("timestamp", .number(String(timestamp)))]
        if let state { aps.append(("content-state", state)) }
        return registry.receive(
            payload(aps + extra), for: .update(token: DeviceToken(validated: token)), priority: priority, sequence: 2,
            now: now, types: Self.types, settings: settings)
    }

    /// A started taxi activity's update token.
    func started() throws -> String {
        try #require(start(startAPS())?.updateToken)
    }

    @Test("a start issues an update token and stores the activity")
    func starts() throws {
        let outcome = try #require(start(startAPS()))
        #expect(outcome.kind == .started && outcome.notes.isEmpty && outcome.warnings.isEmpty)
        let token = try #require(outcome.updateToken)
        let activity = try #require(registry.activity(forToken: token))
        #expect(activity.id == outcome.activityID && activity.contentState == ["status": "1"])
        #expect(activity.pushToStartToken == "p2s")
    }

    @Test("a start without input-push-token issues a token by default, noted; the setting turns that off")
    func inputPushToken() throws {
        let aps = startAPS { $0.removeAll { $0.0 == "input-push-token" } }
        let outcome = try #require(start(aps))
        #expect(outcome.kind == .started && outcome.updateToken != nil)
        #expect(outcome.notes.first?.contains("without input-push-token") == true)
        var settings = LiveActivitySettings()
        settings.tokenWithoutInputPushToken = false
        let quiet = try #require(start(aps, settings: settings))
        #expect(quiet.kind == .started && quiet.updateToken == nil)
    }

    @Test("drops a start without alert, unless the setting allows it")
    func startWithoutAlert() throws {
        let aps = startAPS { $0.removeAll { $0.0 == "alert" } }
        #expect(start(aps)?.summary == "dropped: a start without alert (liveActivity.startNeedsAlert)")
        var settings = LiveActivitySettings()
        settings.startNeedsAlert = false
        #expect(start(aps, settings: settings)?.kind == .started)
    }

    @Test("drops a start for an unknown type or another type than the token's")
    func wrongType() {
        #expect(
            start(startAPS(), type: "mpushTakeoutAttributes")?.reason
                == "attributes-type 'mpushTaxiAttributes' is not this push-to-start token's type "
                + "'mpushTakeoutAttributes'")
        let unknown = startAPS { $0[2].1 = "Nope" }
        #expect(
            start(unknown, type: nil)?.reason
                == "attributes-type 'Nope' is not a type the app declares (declared: mpushTaxiAttributes)")
        let near = startAPS { $0[2].1 = "mpushTaxiAttribute" }
        #expect(
            start(near, type: nil)?.reason
                == "attributes-type 'mpushTaxiAttribute' is not a type the app declares (did you mean "
                + "'mpushTaxiAttributes'? declared: mpushTaxiAttributes)")
        #expect(registry.activities.isEmpty)
    }

    @Test("drops a start whose attributes do not decode, naming the path, or that is over 4 KB")
    func startDecodeAndSize() {
        let bad = startAPS { $0[3].1 = ["appName": 1, "appLogo": "l"] }
        #expect(start(bad)?.kind == .dropped)
        #expect(start(bad)?.reason?.hasPrefix("attributes.appName:") == true)
        let big = startAPS { $0[3].1 = ["appName": .string(String(repeating: "x", count: 4096)), "appLogo": "l"] }
        #expect(start(big)?.reason?.contains("more than the device's 4096") == true)
    }

    @Test("applies a newer or equal timestamp (equal noted), ignores an older one")
    func timestamps() throws {
        let token = try started()
        #expect(send(token, "update", timestamp: Self.t + 10)?.kind == .applied)
        let equal = try #require(send(token, "update", timestamp: Self.t + 10, state: ["status": "3"]))
        #expect(equal.kind == .applied && equal.notes.count == 1)
        #expect(registry.activity(forToken: token)?.contentState == ["status": "3"])
        let older = send(token, "update", timestamp: Self.t + 9)
        #expect(older?.summary == "ignored: timestamp \(Int(Self.t) + 9) is older than the last applied "
            + "\(Int(Self.t) + 10)")
    }

    @Test("drops a content-state that does not decode, naming the path and the decoder's text")
    func badContentState() throws {
        let token = try started()
        let outcome = send(token, "update", timestamp: Self.t + 1, state: ["status": 2])
        #expect(outcome?.summary == "dropped: content-state.status: expected String, found number")
        #expect(registry.activity(forToken: token)?.contentState == ["status": "1"])
    }

    @Test("drops a timestamp more than 8 hours ahead, and at exactly 8 hours applies it")
    func futureTimestamp() throws {
        let token = try started()
        #expect(send(token, "update", timestamp: Self.t + 8 * 3600 + 1)?.kind == .dropped)
        #expect(send(token, "update", timestamp: Self.t + 8 * 3600)?.kind == .applied)
    }

    @Test("ignores updates once the activity reached 8 hours, and after an end")
    func ended() throws {
        let token = try started()
        let later = Self.now.addingTimeInterval(8 * 3600)
        #expect(send(token, "update", timestamp: Self.t + 8 * 3600, at: later)?.summary == "ignored: activity ended")
        let other = try started()
        #expect(send(other, "end", timestamp: Self.t + 1)?.kind == .ended)
        #expect(send(other, "update", timestamp: Self.t + 2)?.summary == "ignored: activity ended")
        #expect(registry.activity(forToken: other)?.history.map(\.outcome) == [.started, .ended, .ignored])
    }

    @Test("applies an end even when older, keeping the state when its content-state does not decode")
    func endOlder() throws {
        let token = try started()
        _ = send(token, "update", timestamp: Self.t + 10)
        let outcome = try #require(
            send(token, "end", timestamp: Self.t + 5, state: ["status": 4], extra: [("dismissal-date", 0)]))
        #expect(outcome.kind == .ended && outcome.notes.count == 2)
        let activity = try #require(registry.activity(forToken: token))
        #expect(activity.contentState == ["status": "2"])
        #expect(activity.state(at: Self.now) == .dismissed)
    }

    @Test("a future dismissal-date keeps the ended activity until then")
    func futureDismissal() throws {
        let token = try started()
        _ = send(token, "end", timestamp: Self.t + 1, extra: [("dismissal-date", .number(String(Int(Self.t) + 60)))])
        let activity = try #require(registry.activity(forToken: token))
        #expect(activity.state(at: Self.now.addingTimeInterval(59)) == .ended)
        #expect(activity.state(at: Self.now.addingTimeInterval(60)) == .dismissed)
    }

    @Test("throttles priority-10 updates at the hourly budget; priority 5 does not count")
    func updateBudget() throws {
        var settings = LiveActivitySettings()
        settings.priority10UpdatesPerHour = 2
        let token = try started()
        for step in 1...2 {
            #expect(send(token, "update", timestamp: Self.t + Double(step), settings: settings)?.kind == .applied)
        }
        #expect(send(token, "update", timestamp: Self.t + 3, settings: settings)?.kind == .throttled)
        #expect(send(token, "update", timestamp: Self.t + 3, priority: 5, settings: settings)?.kind == .applied)
        let hourLater = Self.now.addingTimeInterval(3600)
        #expect(send(token, "update", timestamp: Self.t + 4, at: hourLater, settings: settings)?.kind == .applied)
    }

    @Test("throttles starts at the push-to-start budget within its window")
    func startBudget() {
        var settings = LiveActivitySettings()
        settings.startsPerWindow = 2
        #expect(start(startAPS(), settings: settings)?.kind == .started)
        #expect(start(startAPS(), settings: settings)?.kind == .started)
        #expect(start(startAPS(), settings: settings)?.kind == .throttled)
        #expect(start(startAPS(), at: Self.now.addingTimeInterval(600), settings: settings)?.kind == .started)
    }

    @Test("warns about a Unix time sent to a deferredToDate field, and still applies")
    func dateWarning() throws {
        let token = try started()
        let outcome = try #require(send(token, "update", timestamp: Self.t + 1, state: ["eta": 1_790_000_000]))
        #expect(outcome.kind == .applied)
        #expect(outcome.warnings.first?.hasSuffix("a Unix time sent to a deferredToDate field?") == true)
    }

    @Test("drops a push without event or timestamp, and answers nil for a token it did not issue")
    func malformed() throws {
        let token = try started()
        let noEvent = registry.receive(
            payload([("timestamp", 1)]), for: .update(token: DeviceToken(validated: token)), priority: 10,
            sequence: nil, now: Self.now, types: Self.types)
        #expect(noEvent?.reason == "aps.event is missing, not start, update or end")
        #expect(start(startAPS { $0.remove(at: 1) })?.reason == "aps.timestamp is missing")
        #expect(send(String(repeating: "a", count: 160), "update", timestamp: Self.t) == nil)
    }
}
