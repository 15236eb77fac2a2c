import Foundation

/// The phone operations in-process (issue 23): read a phone's state and what it shows, change it as the person
/// would, each change a `phone` record in the journal.
extension InProcessControl {
    /// Every phone the mock knows: the declared ones, the phone of each declared device, each implicit phone it
    /// keeps state for, and the implicit phone of each token a push reached (a token the scenario does not
    /// declare, accepted in lenient mode, has a default phone from its first push on); declared first, then the
    /// others by id.
    ///
    /// An implicit phone with nothing to remember is not kept (a push to it takes no lock): it is found in the
    /// journal, from the records whose push the phone played.
    public func phones() async throws -> [PhoneSnapshot] {
        engine.settlePhones()
        let world = engine.world
        var declared: [(id: String, declared: Bool)] = []
        var others: [(id: String, declared: Bool)] = []
        var seen = Set<String>()
        for phone in engine.phones.phones where seen.insert(phone.id).inserted {
            if phone.declared { declared.append((phone.id, true)) } else { others.append((phone.id, false)) }
        }
        for device in world.devices.values {
            let id = device.phone ?? device.token
            if seen.insert(id).inserted { others.append((id, false)) }
        }
        var texts = Set<String>()
        for record in journal.records() where record.kind == .devicePush && record.device != nil {
            guard Self.phoneTypes.contains(record.pushType ?? ""), let text = record.deviceToken,
                texts.insert(text).inserted,
                let token = DeviceToken(text), world.devices[token.hex] == nil
            else { continue }
            if seen.insert(token.hex).inserted { others.append((token.hex, false)) }
        }
        return snapshots(of: declared + others.sorted { $0.id < $1.id }, world: world)
    }

    /// The phone `id` (a phone id, or one of its tokens in any case), or `nil` when the mock knows none by it.
    public func phone(id: String) async throws -> PhoneSnapshot? {
        engine.settlePhones()
        let world = engine.world
        guard let target = resolvePhone(id, world: world) else { return nil }
        return snapshots(of: [target], world: world).first
    }

    /// Changes the phone `id` (a phone id or one of its tokens) with `fields`, an object of the fields of a
    /// scenario's `phones.<id>` entry; answers the phone after the change. An unknown field or value is a 400
    /// naming it; an unknown phone a 404. The change is recorded as a `phone` record.
    public func updatePhone(id: String, _ fields: JSONValue) async throws -> PhoneSnapshot {
        try await change(id, app: nil) { state in
            try ScenarioLoader.phoneChange(yaml: fields.jsonText, onto: state)
        }
    }

    /// Changes the app `bundleID` on the phone `id` with `fields`, an object of the fields of a scenario's
    /// `phones.<id>.apps.<bundle>` entry; as `updatePhone`.
    public func updatePhoneApp(id: String, bundleID: String, _ fields: JSONValue) async throws -> PhoneSnapshot {
        guard BundleID.isPlausible(bundleID) else {
            throw MockAPNsControlError.badRequest(
                "'\(Excerpt.of(bundleID))' is not a bundle id such as com.example.app (at most \(BundleID.maximumLength) bytes, "
                    + "no spaces, /, ?, # or %)")
        }
        return try await change(id, app: bundleID) { state in
            guard state.apps[bundleID] != nil || state.apps.count < PhoneState.appLimit else {
                throw ScenarioError(message: "a phone keeps at most \(PhoneState.appLimit) apps")
            }
            var changed = state
            changed.apps[bundleID] = try ScenarioLoader.appChange(yaml: fields.jsonText, onto: state.app(bundleID))
            return changed
        }
    }

    /// Restarts the phone `id` (a phone id or one of its tokens): the person's "turn off, turn on" (phone.md §2).
    /// Every app it lists that was force-quit or in the foreground is `notRunning` after it (not launched since
    /// boot), so background pushes launch a force-quit app again; the rest of its state stays. Recorded as a
    /// `phone` record with `"action": "restart"`, even when no app changed; a 404 for an unknown phone.
    public func restartPhone(id: String) async throws -> PhoneSnapshot {
        try await change(id, app: nil, action: "restart") { state in
            var restarted = state
            for (bundle, app) in state.apps where app.state == .forceQuit || app.state == .foreground {
                restarted.apps[bundle]?.state = .notRunning
            }
            return restarted
        }
    }

    /// Applies `change` to the phone `given` under the registry's lock, with the person's actions it implies
    /// (phone.md §2), records it (always when it is an `action` such as `restart`, else when something changed),
    /// and answers the phone after it.
    private func change(
        _ given: String, app: String?, action: String? = nil, _ change: (PhoneState) throws -> PhoneState
    ) async throws -> PhoneSnapshot {
        let world = engine.world
        guard let target = resolvePhone(given, world: world) else { throw Self.unknownPhone(given) }
        let now = engine.clock.now()
        engine.settlePhones()
        let setup = world.phone
        let outcome = engine.phones.change(target.id) {
            phone -> Result<(PhoneState, PhoneState, [(String, UInt64?)], [DeviceEvent]), any Error> in
            let before = phone.state
            do {
                phone.state = try change(before)
            } catch {
                return .failure(error)
            }
            let (released, heldEvents) = Self.personActions(&phone, from: before, now: now)
            // Back online: APNs delivers what it stored (events after the phone record).
            let settled = phone.settle(now: now, setup: setup)
            return .success((before, phone.state, released, DeviceEvent.inOrder(heldEvents + settled)))
        }
        let before: PhoneState
        let after: PhoneState
        let released: [(String, UInt64?)]
        let events: [DeviceEvent]
        switch outcome {
        case .success(let changed): (before, after, released, events) = changed
        case .failure(let error as ScenarioError):
            throw MockAPNsControlError.badRequest((error.field.isEmpty ? "" : error.field + ": ") + error.message)
        case .failure(let error): throw MockAPNsControlError.badRequest("\(error)")
        }
        let (was, becomes) = Self.difference(before, after, loadedAt: setup.loadedAt)
        if !was.isEmpty || !released.isEmpty || action != nil {
            var members: [(String, JSONValue)] = [("phone", .string(target.id))]
            if let action { members.append(("action", .string(action))) }
            if let app { members.append(("app", .string(app))) }
            members += [("before", .object(was)), ("after", .object(becomes))]
            if !released.isEmpty {
                let pushes: [JSONValue] = released.map { app, push in
                    let sequence: JSONValue = push.map { JSONValue.number(String($0)) } ?? .null
                    return .object([("app", .string(app)), ("push", sequence)])
                }
                members.append(("released", .array(pushes)))
            }
            journal.append(JournalRecord(kind: .phone, receivedAt: now, members: members))
        }
        journal.append(events: events, receivedAt: now)
        return snapshots(of: [target], world: world)[0]
    }

    /// What the person's change does beside itself (phone.md §2): opening an app sets its `lastOpened` (unless the
    /// change sets it) and launches its held background push, force-quitting it drops it, the end of Low Power
    /// Mode launches the pushes it held (`Phone.releaseHeld`); installing an app again puts its token back in use.
    /// Answers the pushes let go and their events.
    private static func personActions(
        _ phone: inout Phone, from before: PhoneState, now: Date
    ) -> ([(String, UInt64?)], [DeviceEvent]) {
        // "state: foreground opens the app (…, sets lastOpened, …)" (phone.md §2).
        for (bundle, app) in phone.state.apps where app.state == .foreground {
            let was = before.app(bundle)
            if was.state != .foreground && app.lastOpened == was.lastOpened {
                phone.state.apps[bundle]?.lastOpened = now
            }
        }
        // An app installed again starts afresh: its token is in use (phone.md §1 step 1).
        for bundle in phone.uninstalledReached.keys where phone.state.app(bundle).installed {
            phone.uninstalledReached[bundle] = nil
        }
        let (released, events) = phone.releaseHeld(from: before, now: now)
        return (released.map { ($0.app, $0.push) }, events)
    }

    /// The members of the two states that differ, each side: the phone's fields, and under `apps` each app whose
    /// fields differ (`lastOpened` resolved against `loadedAt`).
    private static func difference(
        _ before: PhoneState, _ after: PhoneState, loadedAt: Date
    ) -> ([(String, JSONValue)], [(String, JSONValue)]) {
        func object(_ state: PhoneState) -> [(String, JSONValue)] {
            guard case .object(var members) = state.json else { return [] }
            let bundles = Set(before.apps.keys).union(after.apps.keys).sorted()
            members.append(
                (
                    "apps",
                    .object(
                        bundles.map { bundle in
                            // `lastOpened` as a time: the load time until the person opens the app.
                            var app = state.app(bundle)
                            app.lastOpened = app.lastOpened(loadedAt: loadedAt)
                            return (bundle, app.json)
                        })
                ))
            return members
        }
        return diff(object(before), object(after))
    }

    /// The members of `a` and `b` that differ, recursing into objects on both sides.
    private static func diff(
        _ a: [(String, JSONValue)], _ b: [(String, JSONValue)]
    ) -> ([(String, JSONValue)], [(String, JSONValue)]) {
        var left: [(String, JSONValue)] = []
        var right: [(String, JSONValue)] = []
        for (name, old) in a {
            let new = b.first { $0.0 == name }?.1 ?? .null
            guard old != new else { continue }
            if case .object(let oldMembers) = old, case .object(let newMembers) = new {
                let (l, r) = diff(oldMembers, newMembers)
                left.append((name, .object(l)))
                right.append((name, .object(r)))
            } else {
                left.append((name, old))
                right.append((name, new))
            }
        }
        return (left, right)
    }

    /// The phone `given` names: a declared phone, a kept phone, a phone a device names, or the phone of a token (a
    /// declared device's, or in lenient mode any well-formed token's own); `nil` when none.
    func resolvePhone(_ given: String, world: World) -> (id: String, declared: Bool)? {
        if engine.phones.isDeclared(given) { return (given, true) }
        // No longer than a token the APNs port takes: a push could never have reached a longer one.
        if let token = DeviceToken(given), given.utf8.count <= DeviceToken.maximumLength {
            if let device = world.devices[token.hex] {
                guard let id = device.phone else { return (token.hex, false) }
                return (id, engine.phones.isDeclared(id))
            }
            if world.devicePolicy == .lenient || engine.phones.phone(token.hex) != nil { return (token.hex, false) }
            return nil
        }
        if let kept = engine.phones.phone(given) { return (kept.id, kept.declared) }
        // A phone only devices added at run time name (`POST /v1/devices` with `phone:`).
        return world.devices.values.contains { $0.phone == given } ? (given, false) : nil
    }

    /// The snapshots of `phones`, from one pass over the journal.
    private func snapshots(of phones: [(id: String, declared: Bool)], world: World) -> [PhoneSnapshot] {
        var tokens: [String: [String]] = [:]
        var phoneOf: [String: String] = [:]
        for device in world.devices.values {
            let id = device.phone ?? device.token
            tokens[id, default: []].append(device.token)
            phoneOf[device.token] = id
        }
        for phone in phones where !phone.declared && tokens[phone.id] == nil && DeviceToken(phone.id) != nil {
            tokens[phone.id] = [phone.id]
            phoneOf[phone.id] = phone.id
        }
        let wanted = Set(phones.map(\.id))
        var records: [String: [(record: JournalRecord, device: DeviceOutcome, at: Date)]] = [:]
        // The stored pushes of the wanted phones, by sequence: their `delivered` events carry what the phone did.
        var stored: [UInt64: (id: String, record: JournalRecord)] = [:]
        // The phone of each token text as sent (most records repeat a few): parsed once each.
        var phoneOfText: [String: String?] = [:]
        for record in journal.records() {
            if let event = record.deviceEvent {
                guard let device = event.device, let push = stored[event.push] else { continue }
                records[push.id, default: []].append((push.record, device, event.at))
                continue
            }
            guard record.kind == .devicePush, let device = record.device, let text = record.deviceToken else {
                continue
            }
            let found: String?
            if let known = phoneOfText[text] {
                found = known
            } else {
                found = DeviceToken(text).flatMap { phoneOf[$0.hex] }.flatMap { wanted.contains($0) ? $0 : nil }
                phoneOfText[text] = .some(found)
            }
            guard let id = found else { continue }
            if device.kind == .stored { stored[record.sequence] = (id, record) }
            records[id, default: []].append((record, device, record.receivedAt))
        }
        let now = engine.clock.now()
        return phones.map { phone in
            PhoneSnapshot(
                phone: engine.phones.phone(phone.id), id: phone.id, declared: phone.declared,
                tokens: (tokens[phone.id] ?? []).sorted(), records: records[phone.id] ?? [], setup: world.phone,
                now: now)
        }
    }

    /// The push types the phone plays beyond Live Activities: a push of one of them to a token makes its phone.
    static let phoneTypes: Set<String> = ["alert", "background", "voip"]

    /// The 404 for a phone the mock does not know.
    static func unknownPhone(_ id: String) -> MockAPNsControlError {
        .notFound(
            "no phone '\(id)': give a phone id from the scenario's phones:, or a device token (in strict mode one "
                + "the scenario declares); list them with GET /v1/phones")
    }
}
