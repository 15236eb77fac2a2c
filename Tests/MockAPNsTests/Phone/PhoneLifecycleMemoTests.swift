import Foundation
import Testing

@testable import MockAPNs

/// A connection remembers what the default phone did with a payload, for the next push like it (the engine's fast
/// path). An outcome that counts from an app's `lastOpened` changes as time passes with no clock move (which would
/// renew every connection's memory): it must not be remembered.
@Suite("phone: outcomes that count from lastOpened and the connection's memory")
struct PhoneLifecycleMemoTests {
    /// What the engine's phone says for `request` to an undeclared token at `now`, on one connection's `memo`.
    static func outcome(
        _ engine: MockAPNsEngine, _ request: APNsRequest, memo: ValidationMemo, at now: Date
    ) -> String {
        let world = engine.world
        let box = engine.phoneOutcome(
            of: request.content, to: DeviceToken(PhonePush.token(64))!, pushType: "alert", setup: world.phone,
            devices: world.devices, memo: memo, now: now)
        return box.map { "\($0.value.kind.rawValue) \($0.value.rule?.id ?? "-")" } ?? "none"
    }

    /// An alert to com.example.app: one request, whose body storage the memo recognises on the next call.
    static func alert(_ extra: String = "") -> APNsRequest {
        ValidatorFixture().request(headers: ["apns-topic": "com.example.app"], body: PhonePush.alert(extra))
    }

    /// An engine with the scenario `yaml` in force (its `loadedAt` set).
    static func engine(_ yaml: String) throws -> MockAPNsEngine {
        let scenario = try PhonePush.scenario(yaml)
        let engine = MockAPNsEngine(world: scenario.world, rules: [], journal: try Journal(capacity: 10))
        engine.apply(scenario)
        return engine
    }

    /// Whether the memo remembers an outcome for a push like `request` (not only that such a push changes a phone).
    static func remembersOutcome(_ memo: ValidationMemo, _ request: APNsRequest.Content, pushType: String) -> Bool {
        if case .outcome = memo.defaultPhone(for: request, pushType: pushType) { return true }
        return false
    }

    @Test("an ordinary alert is remembered for the next push like it (the fast path this suite guards)")
    func ordinaryRemembered() throws {
        let engine = try Self.engine("mode: lenient\n")
        let memo = ValidationMemo()
        let request = Self.alert()
        #expect(Self.outcome(engine, request, memo: memo, at: engine.world.phone.loadedAt) == "shown alert-shown")
        #expect(Self.remembersOutcome(memo, request.content, pushType: "alert"))
    }

    @Test("an App Clip's alert on one connection: shown, then ephemeral-expired 9 hours later, nothing remembered")
    func appClipAcrossHours() throws {
        let engine = try Self.engine("mode: lenient\napps:\n  - { bundleID: com.example.app, appClip: true }\n")
        let loaded = engine.world.phone.loadedAt
        let memo = ValidationMemo()
        let request = Self.alert()
        #expect(Self.outcome(engine, request, memo: memo, at: loaded) == "shown alert-shown")
        #expect(!Self.remembersOutcome(memo, request.content, pushType: "alert"))
        #expect(Self.outcome(engine, request, memo: memo, at: loaded + 9 * 3600) == "notShown ephemeral-expired")
    }

    @Test("under inactiveAppAfter, an alert with content-available: its launch is judged at each push's time")
    func inactiveAcrossDays() throws {
        let engine = try Self.engine("mode: lenient\nsimulation: { inactiveAppAfter: 72h }\n")
        let loaded = engine.world.phone.loadedAt
        let memo = ValidationMemo()
        let request = Self.alert(#""content-available":1"#)
        func launchInactive(at now: Date) -> Bool? {
            engine.phoneOutcome(
                of: request.content, to: DeviceToken(PhonePush.token(64))!, pushType: "alert",
                setup: engine.world.phone, devices: [:], memo: memo, now: now
            )?.value.fired(.backgroundAppInactive)
        }
        #expect(launchInactive(at: loaded) == false)
        #expect(launchInactive(at: loaded + 73 * 3600) == true)
    }
}
