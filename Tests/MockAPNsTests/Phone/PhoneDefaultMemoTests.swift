import Foundation
import Testing

@testable import MockAPNs

/// The connection's memo of what a default phone did (`ValidationMemo.DefaultPhone`, a hot-path trick of issue 26):
/// on distinct tokens it answers for phones the registry keeps as well, while they act as default ones. Every
/// outcome it gives must be the one a walk without the memo gives, whatever the phone went through.
@Suite("phone: the connection's memo of a default phone's outcome")
struct PhoneDefaultMemoTests {
    let fixture = ValidatorFixture()

    /// A step of the sequence: a push, or a change of a phone between pushes.
    enum Step {
        /// A push of `type` to the token ending in `token`.
        case push(APNsRequest.Content, type: String, token: Int)
        /// A change of the phone of the token ending in `token`, as `PATCH /v1/phones/{id}` makes one.
        case change(token: Int, (inout Phone) -> Void)
    }

    /// The 64-digit token ending in `n` (two hex digits).
    static func token(_ n: Int) -> DeviceToken {
        DeviceToken(validated: String(repeating: "ab", count: 31) + String(format: "%02x", n))
    }

    /// Runs `steps` on two engines alike: one whose pushes share one connection's memo, one that gives each push a
    /// memo of its own; answers each push's outcome on both, with the events it carried.
    func outcomes(_ steps: [Step]) throws -> [(memoized: String, fresh: String)] {
        let memoized = MockAPNsEngine(world: fixture.world, rules: [], journal: try Journal(capacity: 100))
        let fresh = MockAPNsEngine(world: fixture.world, rules: [], journal: try Journal(capacity: 100))
        let memo = ValidationMemo()
        let setup = fixture.world.phone
        func text(_ box: DeviceOutcomeBox?) -> String {
            guard let box else { return "none" }
            let events = box.events.map { "\($0.event.kind.rawValue) \($0.event.rule?.id ?? "-")" }
            return "\(box.value) events: \(events)"
        }
        var results: [(memoized: String, fresh: String)] = []
        for step in steps {
            switch step {
            case .push(let request, let type, let n):
                let token = Self.token(n)
                let one = memoized.phoneOutcome(
                    of: request, to: token, pushType: type, setup: setup, devices: [:], memo: memo, now: fixture.now)
                let other = fresh.phoneOutcome(
                    of: request, to: token, pushType: type, setup: setup, devices: [:], memo: ValidationMemo(),
                    now: fixture.now)
                results.append((text(one), text(other)))
            case .change(let n, let change):
                memoized.phones.change(Self.token(n).hex, change)
                fresh.phones.change(Self.token(n).hex, change)
            }
        }
        return results
    }

    @Test("alerts to phones kept for a background push, changed, offline and back get what a walk gives")
    func keptPhones() throws {
        let alert = fixture.request().content
        let background = fixture.request(
            headers: ["apns-push-type": "background", "apns-priority": "5"],
            body: #"{"aps":{"content-available":1}}"#
        ).content
        let results = try outcomes([
            .push(background, type: "background", token: 1),  // phone 1 is kept, with the default state
            .push(alert, type: "alert", token: 2),  // not kept: the memo learns the alert's outcome
            .push(alert, type: "alert", token: 1),  // kept, acting as a default phone
            .change(token: 1) { $0.state.apps["com.example.app", default: AppOnPhone()].authorization = .denied },
            .push(alert, type: "alert", token: 1),  // kept with another state: walked
            .push(alert, type: "alert", token: 2),
            .change(token: 1) { $0.state = PhoneState() },
            .push(alert, type: "alert", token: 1),  // the default state again
            .change(token: 1) { $0.state.online = false },
            .push(alert, type: "alert", token: 1),  // stored
            .change(token: 1) { $0.state.online = true },
            .push(alert, type: "alert", token: 1),  // the stored push is delivered first
            .push(background, type: "background", token: 3),
            .push(background, type: "background", token: 3),  // the memo says a push like it changes the phone
            .push(background, type: "background", token: 4),
        ])
        for (index, pair) in results.enumerated() {
            #expect(pair.memoized == pair.fresh, "push \(index)")
        }
        // The sequence meets what it is meant to: a discarded alert, and a delivery settled before a push.
        #expect(results[3].fresh.contains("discarded"))
        #expect(results[2].fresh.contains("shown") && !results[2].fresh.contains("discarded"))
        #expect(results[7].fresh.contains("storage-delivered"))
    }

    @Test("the connection's kept words (PhoneWalk.Texts) name each push's own app, launch and count")
    func keptTexts() throws {
        func background(_ topic: String) -> APNsRequest.Content {
            fixture.request(
                headers: ["apns-push-type": "background", "apns-priority": "5", "apns-topic": topic],
                body: #"{"aps":{"content-available":1}}"#
            ).content
        }
        let app = background("com.example.app")
        let other = background("com.example.other")
        var steps: [Step] = [
            .change(token: 2) { $0.state.apps["com.example.app", default: AppOnPhone()].state = .notRunning },
            .push(app, type: "background", token: 1),  // 0: woken
            .push(app, type: "background", token: 2),  // 1: launched, it was not running
            .push(app, type: "background", token: 3),  // 2: woken again, after the other reason
            .push(other, type: "background", token: 3),  // 3: another app, woken
        ]
        // Phone 1 to 4 and then 5 pushes in the hour, then phone 6 to 4: the count goes back past the kept one.
        steps += Array(repeating: .push(app, type: "background", token: 1), count: 3)  // 4...6: 2, 3, then 4
        steps += Array(repeating: .push(app, type: "background", token: 6), count: 4)  // 7...10: 1, 2, 3, then 4
        steps.insert(.push(app, type: "background", token: 1), at: 8)  // phone 1's fifth, between phone 6's
        let results = try outcomes(steps)
        for (index, pair) in results.enumerated() {
            #expect(pair.memoized == pair.fresh, "push \(index)")
        }
        let said = results.map(\.memoized)
        #expect(said[0].contains("com.example.app is woken to handle the push"))
        #expect(said[1].contains("com.example.app is launched in the background (it was not running)"))
        #expect(said[2].contains("com.example.app is woken to handle the push"))
        #expect(said[3].contains("com.example.other is woken to handle the push"))
        #expect(!said[5].contains("background-over-rate"))
        #expect(said[6].contains("background-over-rate: 4 background pushes reached this phone within 1h"))
        #expect(said[7].contains("background-over-rate: 5 background pushes reached this phone within 1h"))
        #expect(said[11].contains("background-over-rate: 4 background pushes reached this phone within 1h"))
    }

    @Test("a phone that acts as a default one: the default state and nothing to settle")
    func actsAsDefault() {
        let registry = PhoneRegistry()
        #expect(registry.kept("p") == .no)
        registry.walk("p") { _ in ((), true) }
        #expect(registry.kept("p") == .asDefault)
        registry.change("p") { $0.state.locked = true }
        #expect(registry.kept("p") == .yes)
        registry.change("p") { $0.state.locked = false }
        #expect(registry.kept("p") == .asDefault)
        registry.change("p") {
            $0.held["com.example.app"] = Phone.HeldPush(number: PushNumber(), at: Date(), rule: .backgroundBudget)
        }
        #expect(registry.kept("p") == .yes)
    }

    @Test("knows without a lookup whether every kept phone acts as a default one, through every kind of change")
    func everyPhoneActsAsDefault() {
        let registry = PhoneRegistry()
        registry.walk("p") { _ in ((), true) }
        registry.walk("q") { _ in ((), true) }
        #expect(registry.everyPhoneActsAsDefault)
        registry.change("p") { $0.state.online = false }
        #expect(!registry.everyPhoneActsAsDefault)
        #expect(!registry.actsAsDefault("p"))
        #expect(registry.actsAsDefault("q") && registry.actsAsDefault("not kept"))
        registry.change("q") { $0.state.locked = true }
        registry.change("p") { $0.state.online = true }
        #expect(!registry.everyPhoneActsAsDefault)
        registry.change("q") { $0.state.locked = false }
        #expect(registry.everyPhoneActsAsDefault)
        // A held push makes a phone act otherwise until settling delivers it.
        registry.walk("p") { phone in
            phone.held["com.example.app"] = Phone.HeldPush(number: PushNumber(), at: Date(), rule: .backgroundBudget)
            return ((), true)
        }
        #expect(!registry.everyPhoneActsAsDefault && !registry.actsAsDefault("p"))
        _ = registry.settleAll(now: Date()) { phone in
            phone.held = [:]
            return []
        }
        // settleAll visits only phones with something due; a held push always is.
        #expect(registry.everyPhoneActsAsDefault)
        // A declared phone in another state counts from the reset; a reset without it counts nothing.
        var offline = PhoneState()
        offline.online = false
        registry.reset(declared: ["alice": offline])
        #expect(!registry.everyPhoneActsAsDefault && !registry.actsAsDefault("alice"))
        registry.reset(declared: [:])
        #expect(registry.everyPhoneActsAsDefault)
        // Forgetting the oldest implicit phones takes their count with them, once.
        registry.change("first") { $0.state.locked = true }
        #expect(!registry.everyPhoneActsAsDefault)
        for n in 0..<PhoneRegistry.implicitLimit { registry.walk("phone \(n)") { _ in ((), true) } }
        #expect(registry.phone("first") == nil)
        #expect(registry.everyPhoneActsAsDefault)
        registry.change("last") { $0.state.locked = true }
        #expect(!registry.everyPhoneActsAsDefault && !registry.actsAsDefault("last"))
    }

    @Test("background pushes that end alike on different kept phones share one device part, and only those")
    func sharedOutcome() throws {
        let engine = MockAPNsEngine(world: fixture.world, rules: [], journal: try Journal(capacity: 100))
        let memo = ValidationMemo()
        let background = fixture.request(
            headers: ["apns-push-type": "background", "apns-priority": "5"],
            body: #"{"aps":{"content-available":1}}"#
        ).content
        func push(_ n: Int) throws -> DeviceOutcomeBox {
            try #require(
                engine.phoneOutcome(
                    of: background, to: Self.token(n), pushType: "background", setup: fixture.world.phone,
                    devices: [:], memo: memo, now: fixture.now))
        }
        // Each phone's first: the same launch on phones 1 and 2, so the second shares the first's box.
        let first = try push(1)
        let second = try push(2)
        #expect(second === first)
        #expect(second.value.kind == .launched)
        // Phone 1's second push ends as its first did.
        #expect(try push(1) === first)
        // Past `overRateCount` the warning names the count: a new outcome in a new box, which the next push that
        // ends alike (phone 5's at the same count) shares.
        for _ in 0..<SimulationSettings.overRateCount {
            _ = try push(4)
            _ = try push(5)
        }
        let overRate = try push(4)
        #expect(overRate !== first && overRate.value.warnings.count == 1)
        #expect(overRate.value.warnings.first?.contains("4 background pushes") == true)
        #expect(try push(5) === overRate)
        // The next count is another warning: not shared.
        let next = try push(4)
        #expect(next !== overRate && next.value.warnings.first?.contains("5 background pushes") == true)

        // An outcome the phone keeps a reference to (a number), that carries events or whose token went out of use
        // gets a box of its own, never shared or kept.
        let number = PushNumber()
        let numbered = memo.outcomeBox(next.value, number: number, events: [], unregisteredSince: nil)
        #expect(numbered !== next && numbered.number === number)
        let event = DeviceEvent(PushNumber(), at: fixture.now, DeviceOutcome(.expired))
        let withEvents = memo.outcomeBox(next.value, number: nil, events: [event], unregisteredSince: nil)
        #expect(withEvents !== next && withEvents.events.count == 1)
        let unregistered = memo.outcomeBox(next.value, number: nil, events: [], unregisteredSince: fixture.now)
        #expect(unregistered !== next && unregistered.unregisteredSince == fixture.now)
        // None of them replaced the last box kept: an outcome like it is given that one; another gets a new box.
        #expect(memo.outcomeBox(next.value, number: nil, events: [], unregisteredSince: nil) === next)
        let other = memo.outcomeBox(first.value, number: nil, events: [], unregisteredSince: nil)
        #expect(other !== next && other.value == first.value)
    }
}
