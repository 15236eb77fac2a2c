import Foundation
import Testing

@testable import MockAPNs

/// What a long or odd life does to an activity: a history that stays bounded, dates no clock can print, local
/// starts beside the push-to-start budget, a declared device removed or given again.
@Suite("Activity limits")
struct ActivityLimitsTests {
    static let now = ActivityReceiveTests.now

    @Test("the history keeps the newest pushes, counts every outcome, and positions stay valid after a drop")
    func boundedHistory() {
        var activity = LiveActivity(
            id: "a", attributesType: "mpushTaxiAttributes", attributes: .null, contentState: .null, updateToken: "t",
            pushToStartToken: nil, startedAt: Self.now, timestamp: 0)
        var positions: [Int] = []
        for index in 0..<5000 {
            let outcome: DeviceOutcome.Kind = index % 5 == 0 ? .ignored : .applied
            positions.append(activity.record(ActivityPush(at: Self.now, sequence: nil, event: "update", outcome: outcome)))
        }
        #expect(positions == Array(0..<5000))
        #expect(activity.history.count <= LiveActivity.historyLimit * 3 / 2)
        #expect(activity.history.count >= LiveActivity.historyLimit)
        #expect(activity.historyDropped + activity.history.count == 5000)
        #expect(activity.outcomeCounts[.applied] == 4000 && activity.outcomeCounts[.ignored] == 1000)
        #expect(ActivitySnapshot(activity, at: Self.now).outcomeCounts[.ignored] == 1000)
    }

    @Test("with many activities each history keeps fewer pushes, never under 20, and the budget still counts all")
    func historyShrinksWithManyActivities() {
        #expect(ActivityRegistry.historyLimit(activities: 0) == LiveActivity.historyLimit)
        #expect(ActivityRegistry.historyLimit(activities: 1000) == LiveActivity.historyLimit)
        #expect(ActivityRegistry.historyLimit(activities: 5000) == 200)
        #expect(ActivityRegistry.historyLimit(activities: 10_000_000) == ActivityRegistry.historyFloor)
        var activity = LiveActivity(
            id: "a", attributesType: "mpushTaxiAttributes", attributes: .null, contentState: .null, updateToken: "t",
            pushToStartToken: nil, startedAt: Self.now, timestamp: 0)
        for index in 0..<300 {
            _ = activity.record(
                ActivityPush(
                    at: Self.now.addingTimeInterval(Double(index)), sequence: nil, event: "update", outcome: .applied,
                    priority: 10),
                limit: 20)
        }
        #expect(activity.history.count <= 30 && activity.historyDropped + activity.history.count == 300)
        // The priority-10 budget counts the hour's applied updates, not the shortened history.
        #expect(activity.priority10Applied.count == 300)
        _ = activity.record(
            ActivityPush(
                at: Self.now.addingTimeInterval(3600 + 100), sequence: nil, event: "update", outcome: .applied,
                priority: 10),
            limit: 20)
        #expect(activity.priority10Applied.count == 200, "the first 101 are more than an hour old")
    }

    @Test("a record's sequence reaches its history entry after older entries were dropped")
    func numberingAfterDrops() throws {
        let registry = ActivityRegistry()
        let tests = ActivityReceiveTests()
        let token = try #require(
            registry.receive(
                tests.startAPS(), for: .pushToStart(token: "p2s", attributesType: nil), priority: 5, sequence: nil,
                now: Self.now, types: ActivityReceiveTests.types)?.updateToken)
        var last: ActivityHistoryEntry?
        for second in 1...2000 {
            let update = JSONValue.object([
                ("aps", .object([
                    ("event", "update"), ("timestamp", .number(String(Int(ActivityReceiveTests.t) + second))),
                    ("content-state", ["status": "2"]),
                ]))
            ])
            last = registry.receiveLocated(
                update, for: .update(token: DeviceToken(validated: token)), priority: 5, sequence: nil, now: Self.now,
                types: ActivityReceiveTests.types, settings: LiveActivitySettings())?.entry
        }
        let entry = try #require(last)
        #expect(entry.index == 2000)
        registry.number([(entry: entry, sequence: 77)])
        let activity = try #require(registry.activity(forToken: token))
        #expect(activity.historyDropped > 0)
        #expect(activity.history.last?.sequence == 77)
        #expect(activity.outcomeCounts[.started] == 1 && activity.outcomeCounts[.applied] == 2000)
    }

    @Test("a date beyond any calendar prints as the last instant of 9999 instead of trapping", arguments: [
        (1e20, "9999-12-31T23:59:59.999Z"), (-1e20, "0001-01-01T00:00:00.000Z"), (0, "1970-01-01T00:00:00.000Z"),
    ])
    func saturatedDates(seconds: Double, text: String) {
        #expect(Timestamp.text(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test("an activity with a stale-date of 1e20 still reads as JSON")
    func hugeStaleDate() throws {
        let registry = ActivityRegistry()
        let outcome = registry.receive(
            ActivityReceiveTests().startAPS { $0.append(("stale-date", .number("1e20"))) },
            for: .pushToStart(token: "p2s", attributesType: nil), priority: 10, sequence: 1, now: Self.now,
            types: ActivityReceiveTests.types)
        #expect(outcome?.kind == .started)
        let activity = try #require(registry.activities.first)
        let json = ActivitySnapshot(activity, at: Self.now).json
        #expect(json["staleDate"] == "9999-12-31T23:59:59.999Z")
    }

    @Test("local starts naming a push-to-start token leave its budget to the pushes")
    func localStartsOutsideBudget() throws {
        let registry = ActivityRegistry()
        for _ in 0..<3 {
            _ = try registry.startLocally(
                ActivityStart(
                    attributesType: "mpushTaxiAttributes", attributes: ["appName": "T", "appLogo": "l"],
                    contentState: ["status": "1"], pushToStartToken: "p2s"),
                now: Self.now, types: ActivityReceiveTests.types)
        }
        var settings = LiveActivitySettings()
        settings.startsPerWindow = 3
        let outcome = registry.receive(
            ActivityReceiveTests().startAPS(), for: .pushToStart(token: "p2s", attributesType: nil), priority: 10,
            sequence: 1, now: Self.now, types: ActivityReceiveTests.types, settings: settings)
        #expect(outcome?.kind == .started, "\(String(describing: outcome?.summary))")
    }

    @Test("a declared device given again replaces its activity; removing it removes the activity and its token")
    func declaredDeviceReplacedAndRemoved() throws {
        let registry = ActivityRegistry()
        let token = String(repeating: "ab", count: 80)
        var device = Device(token: token)
        device.kind = .liveActivity
        device.attributesType = "mpushTaxiAttributes"
        let first = try #require(registry.startDeclared([device], now: Self.now).first)
        let second = try #require(registry.startDeclared([device], now: Self.now).first)
        #expect(first.id != second.id)
        #expect(registry.activities.map(\.id) == [second.id])
        #expect(registry.activity(forToken: token)?.id == second.id)
        registry.removeActivity(updatedBy: token.uppercased())
        #expect(registry.activities.isEmpty)
        #expect(!registry.isUpdateToken(token))
    }
}
