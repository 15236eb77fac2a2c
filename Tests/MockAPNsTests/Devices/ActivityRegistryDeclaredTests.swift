import Foundation
import Testing

@testable import MockAPNs

/// Activities under a given token: a scenario's `live-activity` devices with an `attributesType`.
@Suite("ActivityRegistry: declared tokens")
struct ActivityRegistryDeclaredTests {
    static let token = String(repeating: "AB", count: 80)

    @Test("start(_:token:) keeps the given token, lower-cased, and gives a new id")
    func givenToken() throws {
        let registry = ActivityRegistry()
        let started = registry.start(LiveActivityStateTests.taxi(), token: try #require(DeviceToken(Self.token)))
        #expect(started.updateToken == Self.token.lowercased())
        #expect(!started.id.isEmpty)
        #expect(registry.activity(forToken: Self.token)?.id == started.id)
        let minted = registry.start(LiveActivityStateTests.taxi())
        #expect(minted.updateToken != started.updateToken)
        #expect(registry.activities.map(\.id) == [started.id, minted.id])
    }

    @Test("startDeclared starts one activity per live-activity device with attributesType, and none for others")
    func declared() throws {
        var world = World()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let typed = String(repeating: "01", count: 80)
        let untyped = String(repeating: "02", count: 80)
        let starter = String(repeating: "03", count: 80)
        world.devices[typed] = Device(token: typed, kind: .liveActivity, attributesType: "mpushTaxiAttributes")
        world.devices[untyped] = Device(token: untyped, kind: .liveActivity)
        world.devices[starter] = Device(token: starter, kind: .pushToStart, attributesType: "mpushTaxiAttributes")
        let registry = ActivityRegistry()
        let started = registry.startDeclared(world.devices.values, now: now)
        #expect(started.map(\.updateToken) == [typed])
        let activity = try #require(registry.activity(forToken: typed))
        #expect(activity.attributesType == "mpushTaxiAttributes")
        #expect(activity.startedAt == now)
        #expect(activity.timestamp == 0)
        #expect(activity.contentState == .null && activity.attributes == .null)
        #expect(activity.pushToStartToken == nil)
        #expect(activity.state(at: now) == .active)
        #expect(!registry.isUpdateToken(untyped) && !registry.isUpdateToken(starter))
    }
}
