import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import MockAPNs

/// `ActivityRegistry`'s changes beside pushes (rotate, dismiss, local start), its watchers and its snapshots.
@Suite("ActivityRegistry changes")
struct ActivityRegistryChangesTests {
    let registry = ActivityRegistry()
    func at(_ seconds: TimeInterval) -> Date { LiveActivityStateTests.start.addingTimeInterval(seconds) }

    @Test("rotates a running activity's token: only the new one updates; refused once it ended, unknown ids refused")
    func rotate() throws {
        let started = registry.start(LiveActivityStateTests.taxi())
        let rotated = try registry.rotateToken(id: started.id, now: at(60))
        #expect(rotated.updateToken != started.updateToken && rotated.updateToken.count == 160)
        #expect(!registry.isUpdateToken(started.updateToken) && registry.isUpdateToken(rotated.updateToken))
        #expect(registry.activity(forToken: rotated.updateToken)?.id == started.id)
        #expect(throws: ActivityChangeRefusal.notAllowed(state: .ended)) {
            try registry.rotateToken(id: started.id, now: at(8 * 3600))
        }
        #expect(throws: ActivityChangeRefusal.unknown(id: "nope")) { try registry.rotateToken(id: "nope", now: at(0)) }
    }

    @Test("a dismissal: dismissed from then on (also an ended one still on screen), pushes ignored, twice refused")
    func dismiss() throws {
        let started = registry.start(LiveActivityStateTests.taxi())
        let dismissed = try registry.dismiss(id: started.id, now: at(60))
        #expect(dismissed.state(at: at(59)) == .active)
        #expect(dismissed.state(at: at(60)) == .dismissed)
        #expect(dismissed.endDate() == at(60) && dismissed.dismissDate() == at(60))
        #expect(throws: ActivityChangeRefusal.notAllowed(state: .dismissed)) {
            try registry.dismiss(id: started.id, now: at(61))
        }
        let outcome = registry.receive(
            ["aps": ["event": "update", "timestamp": .number(String(Int(at(120).timeIntervalSince1970))),
                "content-state": ["status": "2"]]],
            for: .update(token: DeviceToken(validated: started.updateToken)), priority: 10, sequence: 7, now: at(120),
            types: ActivityReceiveTests.types)
        #expect(outcome?.summary == "ignored: dismissed by the person")

        let ended = registry.start(LiveActivityStateTests.taxi())
        #expect(try registry.dismiss(id: ended.id, now: at(9 * 3600)).state(at: at(9 * 3600)) == .dismissed)
    }

    @Test("a local start decodes as the declared type, starts outside the push-to-start budget, has no timestamp")
    func localStart() throws {
        let good = ActivityStart(
            attributesType: "mpushTaxiAttributes", attributes: ["appName": "T", "appLogo": "l"],
            contentState: ["status": "1"], pushToStartToken: "ABCD")
        let started = try registry.startLocally(good, now: at(0), types: ActivityReceiveTests.types)
        #expect(started.pushToStartToken == "abcd" && started.timestamp == 0 && started.history.isEmpty)
        #expect(registry.isUpdateToken(started.updateToken))
        var bad = good
        bad.contentState = ["status": 1]
        let refusal = ActivityChangeRefusal.invalid(
            "does not decode: content-state.status: expected String, found number")
        #expect(throws: refusal) {
            try registry.startLocally(bad, now: at(0), types: ActivityReceiveTests.types)
        }
        bad.attributesType = "Other"
        #expect(throws: ActivityChangeRefusal.self) { try registry.startLocally(bad, now: at(0), types: [:]) }
        #expect(registry.activities.count == 1)
    }

    @Test("watchers hear every change in order, with the push's outcome, until removed")
    func watchers() throws {
        let heard = NIOLockedValueBox([ActivityRegistryEvent]())
        let watcher = registry.addWatcher { event in heard.withLockedValue { $0.append(event) } }
        let started = registry.start(LiveActivityStateTests.taxi())
        _ = registry.receive(
            ["aps": ["event": "update", "timestamp": 1, "content-state": ["status": "2"]]],
            for: .update(token: DeviceToken(validated: started.updateToken)), priority: 10, sequence: nil, now: at(1),
            types: ActivityReceiveTests.types)
        _ = try registry.rotateToken(id: started.id, now: at(2))
        _ = try registry.dismiss(id: started.id, now: at(3))
        registry.removeWatcher(watcher)
        _ = registry.start(LiveActivityStateTests.taxi())
        let events = heard.withLockedValue { $0 }
        #expect(events.map(\.kind) == [.started, .pushed, .rotated, .dismissed])
        #expect(events.map(\.sequence) == [1, 2, 3, 4])
        #expect(events[1].outcome == .ignored, "timestamp 1 is older than the start's")
        #expect(events.allSatisfy { $0.activity.id == started.id })
    }

    @Test("a snapshot's JSON reads back to the same snapshot")
    func snapshotJSON() throws {
        var activity = registry.start(LiveActivityStateTests.taxi())
        _ = activity.record(
            ActivityPush(at: at(1), sequence: 4, event: "update", outcome: .dropped, reason: "why", priority: 5))
        activity.relevanceScore = 0.5
        activity.staleDate = at(600)
        let snapshot = ActivitySnapshot(activity, at: at(700))
        #expect(snapshot.state == .stale)
        let text = snapshot.json.jsonText
        let back = try #require(ActivitySnapshot(json: try JSONParser.parse(text)))
        #expect(back.json.jsonText == text)
        #expect(back.outcomeCounts[.dropped] == 1 && back.outcomeCounts[.applied] == 0)
        #expect(back.history.first?.priority == 5 && back.relevanceScore == 0.5)
    }
}
