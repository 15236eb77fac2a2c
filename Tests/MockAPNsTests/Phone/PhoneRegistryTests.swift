import Foundation
import Testing

@testable import MockAPNs

/// `PhoneRegistry` and `Phone`: what they keep stays bounded whatever the pushes (tokens, collapse ids, background
/// pushes), and a reset brings the declared phones back.
@Suite("PhoneRegistry")
struct PhoneRegistryTests {
    @Test("keeps an implicit phone only when a walk changed it, and at most implicitLimit of them")
    func implicitPhonesAreBounded() {
        let registry = PhoneRegistry()
        #expect(registry.isEmpty)
        registry.walk("unchanged") { _ in ((), false) }
        #expect(registry.isEmpty && registry.phone("unchanged") == nil)
        for index in 0..<(PhoneRegistry.implicitLimit + 50) {
            registry.walk("phone-\(index)") { phone in
                phone.state.locked = true
                return ((), true)
            }
        }
        #expect(!registry.isEmpty)
        #expect(registry.phones.count <= PhoneRegistry.implicitLimit)
        #expect(registry.phone("phone-\(PhoneRegistry.implicitLimit + 49)")?.state.locked == true, "the newest stays")
        #expect(registry.phone("phone-0") == nil, "the oldest is forgotten")
    }

    @Test("declared phones are never forgotten, and a reset restores their declared state")
    func declaredPhones() {
        let registry = PhoneRegistry()
        var away = PhoneState()
        away.online = false
        registry.reset(declared: ["alice": away])
        registry.change("alice") { $0.state.online = true }
        #expect(registry.phone("alice")?.state.online == true)
        for index in 0..<(PhoneRegistry.implicitLimit + 10) {
            registry.walk("p\(index)") { _ in ((), true) }
        }
        #expect(registry.phone("alice")?.declared == true)
        registry.reset(declared: ["alice": away])
        #expect(registry.phone("alice")?.state.online == false && registry.phones.count == 1)
    }

    @Test("a phone remembers at most collapseLimit collapse ids and backgroundPushLimit background pushes")
    func phoneStateIsBounded() {
        var phone = Phone(id: "p", declared: false, state: PhoneState())
        for index in 0..<(Phone.collapseLimit + 20) {
            _ = phone.collapse(Phone.CollapseKey(bundleID: "com.x", collapseID: "id-\(index)"), to: PushNumber())
        }
        #expect(phone.collapsed.count == Phone.collapseLimit && phone.collapseOrder.count == Phone.collapseLimit)
        let now = Date()
        for _ in 0..<(Phone.backgroundPushLimit + 5) { Phone.note(now, in: &phone.backgroundPushes) }
        #expect(phone.backgroundPushes.count == Phone.backgroundPushLimit)
        phone.pruneBackground(now: now.addingTimeInterval(3601), budgetWindow: 60)
        #expect(phone.backgroundPushes.isEmpty, "an hour later none is in the over-rate window")
    }

    @Test("at backgroundPushLimit the over-rate warning says 'at least': the phone remembers no more")
    func overRateAtTheLimit() throws {
        let fixture = ValidatorFixture()
        let engine = MockAPNsEngine(world: fixture.world, rules: [], journal: try Journal(capacity: 10))
        let token = DeviceToken(validated: String(repeating: "cd", count: 32))
        let background = fixture.request(
            headers: ["apns-push-type": "background", "apns-priority": "5"],
            body: #"{"aps":{"content-available":1}}"#
        ).content
        engine.phones.change(token.hex) { phone in
            for _ in 0..<(Phone.backgroundPushLimit - 2) { Phone.note(fixture.now, in: &phone.backgroundPushes) }
        }
        func warning() -> String {
            let box = engine.phoneOutcome(
                of: background, to: token, pushType: "background", setup: fixture.world.phone, devices: [:],
                memo: ValidationMemo(), now: fixture.now)
            return box?.value.warnings.first ?? "none"
        }
        #expect(warning().hasPrefix("background-over-rate: 9999 background pushes reached this phone within 1h"))
        #expect(warning().hasPrefix("background-over-rate: at least 10000 background pushes reached this phone"))
        #expect(warning().hasPrefix("background-over-rate: at least 10000 background pushes reached this phone"))
    }
}
