import Atomics
import Foundation
import NIOConcurrencyHelpers

/// The simulated phones and their state (phone.md §2), beside the `ActivityRegistry` and kept out of the `World`
/// for the same reason: a push that changes a phone (a budget, a held push) must not rebuild every connection's
/// caches.
///
/// The phones the scenario declares are always here. A phone the scenario does not describe (a token's own) is
/// kept only once something about it must be remembered: a state change through the API, a background push in the
/// budget window, a collapse id, a VoIP failure. Until then it is the default phone, and a push to it takes no lock
/// (`isEmpty`). At most `implicitLimit` such phones are kept; past it the oldest is forgotten.
///
/// While every kept phone acts as a default one (`Phone.actsAsDefault`: only background pushes in the budget window,
/// say), `actsAsDefault(_:)` answers without the lock: the registry counts the phones that do not, and publishes
/// whether there is none (`allActAsDefault`). Each change to a kept phone goes through `update`, which keeps the
/// count in step.
public final class PhoneRegistry: Sendable {
    private struct State {
        /// The phones kept, by id.
        var phones: [String: Phone] = [:]
        /// The declared phones' state as the scenario gives it: what a reset restores.
        var declared: [String: PhoneState] = [:]
        /// The implicit phones kept, oldest first (ids may repeat after a forget; `phones` decides).
        var implicitOrder: [String] = []
        /// How many implicit phones are kept.
        var implicitCount = 0
        /// How many kept phones do not act as default ones.
        var notDefault = 0
    }

    private let state = NIOLockedValueBox(State())
    /// Whether any phone is kept: read without the lock on every push.
    private let keepsPhones = ManagedAtomic<Bool>(false)
    /// Whether every kept phone acts as a default one (`State.notDefault` is 0): read without the lock per push.
    private let allActAsDefault = ManagedAtomic<Bool>(true)

    /// The most phones the scenario does not describe that are kept at once.
    public static let implicitLimit = 10_000

    /// No phone yet.
    public init() {}

    /// Whether no phone is kept: every push goes to a default phone.
    var isEmpty: Bool { !keepsPhones.load(ordering: .relaxed) }

    /// Forgets every phone and keeps the declared ones, in their declared state (a scenario load or reset).
    public func reset(declared: [String: PhoneState]) {
        state.withLockedValue { state in
            state = State()
            allActAsDefault.store(true, ordering: .releasing)
            state.declared = declared
            for (id, phoneState) in declared {
                keep(Phone(id: id, declared: true, state: phoneState), in: &state)
            }
            keepsPhones.store(!state.phones.isEmpty, ordering: .relaxed)
        }
    }

    /// Runs `body` on the phone `id`, keeping it (an implicit phone with the defaults when it is new).
    func withPhone<T>(_ id: String, _ body: (inout Phone) throws -> T) rethrows -> T {
        try state.withLockedValue { state in
            if state.phones[id] == nil {
                keepImplicit(Phone(id: id, declared: false, state: PhoneState()), in: &state)
            }
            return try update(id, in: &state, body).result
        }
    }

    /// Whether every kept phone acts as a default one (`Phone.actsAsDefault`), read without the lock.
    var everyPhoneActsAsDefault: Bool { allActAsDefault.load(ordering: .acquiring) }

    /// Whether the phone `id` acts as a default one: not kept, or kept and `Phone.actsAsDefault`. No lock while
    /// every kept phone does.
    func actsAsDefault(_ id: String) -> Bool {
        if isEmpty || everyPhoneActsAsDefault { return true }
        return kept(id) != .yes
    }

    /// Whether the phone `id` is kept and, if so, whether it acts as a default phone (`Phone.actsAsDefault`): one
    /// lookup, none while no phone is kept.
    func kept(_ id: String) -> Kept {
        if isEmpty { return .no }
        return state.withLockedValue { state in
            // Read in place: `phones[id]` copies the phone out (its arrays retained and released) on every alert.
            guard let index = state.phones.index(forKey: id) else { return .no }
            return state.phones.values[index].actsAsDefault ? .asDefault : .yes
        }
    }

    /// How the registry keeps a phone (`kept(_:)`).
    enum Kept {
        /// Not kept: a push walks a default phone.
        case no
        /// Kept, and acting as a default phone (`Phone.actsAsDefault`).
        case asDefault
        /// Kept, with something a push may meet.
        case yes
    }

    /// Runs `body` on the phone `id`: the one kept, else a default phone, kept only when `body` says it changed
    /// it (a push that leaves something behind). Answers `body`'s result and whether the phone acted as a default
    /// one before it (`Phone.actsAsDefault`).
    @discardableResult
    func walk<T>(
        _ id: String, _ body: (inout Phone) -> (result: T, changed: Bool)
    ) -> (result: T, actedAsDefault: Bool) {
        state.withLockedValue { state in
            // One lookup of the 64-digit key for a kept phone, not one to find it and one to change it.
            if let index = state.phones.index(forKey: id) {
                let (walked, actedAsDefault) = update(at: index, in: &state, body)
                return (walked.result, actedAsDefault)
            }
            var phone = Phone(id: id, declared: false, state: PhoneState())
            let (result, changed) = body(&phone)
            if changed { keepImplicit(phone, in: &state) }
            return (result, true)
        }
    }

    /// Changes the phone `id` through the API: `change` runs on the kept phone, or on a default one that is then
    /// kept (an implicit phone the person changed has something to remember).
    func change<T>(_ id: String, _ change: (inout Phone) throws -> T) rethrows -> T {
        try withPhone(id, change)
    }

    /// Runs `settle` on every phone kept with something due at `now` (`Phone.hasSomethingDue`: a stored push the
    /// phone can take or that expired, a held push), and answers what each gave, in turn by phone id.
    ///
    /// Every `PATCH` of a phone settles them all; with 1,000 offline phones storing pushes, settling each one (a sort
    /// of its pushes and of the ids) made 1,000 changes take seconds under the registry's lock, so phones with
    /// nothing due are passed over with one look at their pushes.
    func settleAll(now: Date, _ settle: (inout Phone) -> [DeviceEvent]) -> [DeviceEvent] {
        state.withLockedValue { state in
            var events: [DeviceEvent] = []
            let due = state.phones.compactMap { id, phone in phone.hasSomethingDue(now: now) ? id : nil }
            for id in due.sorted() {
                events += update(id, in: &state, settle).result
            }
            return events
        }
    }

    /// The phone `id` as kept; `nil` when it is not (an implicit phone with nothing to remember).
    public func phone(_ id: String) -> Phone? {
        state.withLockedValue { $0.phones[id] }
    }

    /// Every phone kept, declared first, each group by id.
    public var phones: [Phone] {
        state.withLockedValue { state in
            state.phones.values.sorted { ($0.declared ? 0 : 1, $0.id) < ($1.declared ? 0 : 1, $1.id) }
        }
    }

    /// Whether the scenario declares the phone `id`.
    public func isDeclared(_ id: String) -> Bool {
        state.withLockedValue { $0.declared[id] != nil }
    }

    /// Keeps `phone`, a new one, counting it if it does not act as a default phone.
    private func keep(_ phone: Phone, in state: inout State) {
        state.phones[phone.id] = phone
        if !phone.actsAsDefault { count(+1, in: &state) }
    }

    /// Keeps `phone`, a new implicit one; past `implicitLimit` forgets the oldest.
    private func keepImplicit(_ phone: Phone, in state: inout State) {
        keep(phone, in: &state)
        state.implicitOrder.append(phone.id)
        state.implicitCount += 1
        keepsPhones.store(true, ordering: .relaxed)
        forgetOldest(&state)
    }

    /// Runs `body` on the kept phone `id`, keeping the count of phones that do not act as default ones in step.
    private func update<T>(
        _ id: String, in state: inout State, _ body: (inout Phone) throws -> T
    ) rethrows -> (result: T, actedAsDefault: Bool) {
        try update(at: state.phones.index(forKey: id)!, in: &state, body)
    }

    /// Runs `body` on the kept phone at `index`, keeping the count of phones that do not act as default ones in
    /// step; answers `body`'s result and whether the phone acted as a default one before it.
    private func update<T>(
        at index: Dictionary<String, Phone>.Index, in state: inout State, _ body: (inout Phone) throws -> T
    ) rethrows -> (result: T, actedAsDefault: Bool) {
        var acted = (before: false, after: false)
        // Also when `body` throws: it may have changed the phone first.
        defer { if acted.before != acted.after { count(acted.after ? -1 : +1, in: &state) } }
        let result = try Self.observed(&state.phones.values[index], &acted, body)
        return (result, acted.before)
    }

    /// `body` run on `phone`, noting whether the phone acted as a default one before and after. Read through the one
    /// in-place access: `state.phones.values[index].actsAsDefault` copied the phone out (its arrays retained and
    /// released) twice per walk, 0.2 µs of a background push.
    private static func observed<T>(
        _ phone: inout Phone, _ acted: inout (before: Bool, after: Bool), _ body: (inout Phone) throws -> T
    ) rethrows -> T {
        acted.before = phone.actsAsDefault
        defer { acted.after = phone.actsAsDefault }
        return try body(&phone)
    }

    /// Adds `change` to the count of kept phones that do not act as default ones, and publishes whether it is 0.
    private func count(_ change: Int, in state: inout State) {
        state.notDefault += change
        allActAsDefault.store(state.notDefault == 0, ordering: .releasing)
    }

    /// Past `implicitLimit` implicit phones, forgets the oldest tenth of them at once.
    private func forgetOldest(_ state: inout State) {
        guard state.implicitCount > Self.implicitLimit else { return }
        let drop = Self.implicitLimit / 10
        var dropped = 0
        var index = 0
        while dropped < drop, index < state.implicitOrder.count {
            let id = state.implicitOrder[index]
            if let phone = state.phones[id], !phone.declared {
                state.phones[id] = nil
                if !phone.actsAsDefault { count(-1, in: &state) }
                dropped += 1
            }
            index += 1
        }
        state.implicitOrder.removeFirst(index)
        state.implicitCount -= dropped
    }
}
