import Foundation

extension MockAPNsEngine {
    /// What the simulated phone does with `request`, a push of a type other than `liveactivity` accepted for
    /// `token` (phone.md), under the world's phone `setup` and `devices`: `nil` for other push types, or with the
    /// simulation off (`simulation.enabled: false`). The two parts are passed, not the world: a copy of the world
    /// per push was measurable.
    ///
    /// The token is the validated `DeviceToken` (lower-cased), never the path's text. The connection's memo keeps
    /// what a default phone did with the last push walked on it (`ValidationMemo.DefaultPhone`), for the provider's
    /// usual stream of the same payload to many tokens:
    /// - a push like one that left a default phone unchanged gets the same outcome on any phone that acts as a
    ///   default one (not kept, or kept with the default state and nothing to settle: `Phone.actsAsDefault`),
    ///   which costs one registry lookup and a few comparisons;
    /// - a push like one that changed a default phone (a background push) goes straight to the phone kept;
    /// - otherwise a phone the registry does not keep is first walked as a default phone without the lock, and
    ///   kept only if the push changed it.
    func phoneOutcome(
        of request: APNsRequest.Content, to token: DeviceToken, pushType: String?, setup: PhoneSetup,
        devices: [String: Device], memo: ValidationMemo, now: Date
    ) -> DeviceOutcomeBox? {
        guard setup.enabled, let pushType, let type = Self.phoneType(pushType) else { return nil }
        let device = devices.isEmpty ? nil : devices[token.hex]
        // A phone the scenario names (`devices:` … `phone:`) is always walked where it is kept.
        let named = device?.phone != nil
        let phoneID = device?.phone ?? token.hex
        let memoized = named ? nil : memo.defaultPhone(for: request, pushType: pushType)
        var kept = PhoneRegistry.Kept.yes
        switch memoized {
        case .outcome(let box):
            if phones.actsAsDefault(phoneID) { return box }
        case .changes:
            break
        case nil:
            if !named { kept = phones.kept(phoneID) }
        }
        let bundleID = Self.bundleID(topic: request.fields.topic ?? device?.bundleID, type: type)
        let app = setup.appCode(bundleID)
        var walk = PhoneWalk(
            request: request, facts: memo.pushFacts(request.body), pushType: type, bundleID: bundleID,
            token: token.hex, app: app, settings: setup.settings, now: now, loadedAt: setup.loadedAt,
            texts: memo.walkTexts)
        if kept == .no {
            var defaultPhone = Phone(id: phoneID, declared: false, state: PhoneState())
            var tried = walk
            guard let outcome = tried.run(on: &defaultPhone) else { return nil }
            if !tried.changed {
                let box = DeviceOutcomeBox(outcome)
                // An outcome read from `lastOpened` changes as the clock runs: never remembered.
                if app.behaviour.hasNoCases, !tried.readLastOpened {
                    memo.keepDefaultPhone(.outcome(box), for: request, pushType: pushType)
                }
                return box
            }
            memo.keepDefaultPhone(.changes, for: request, pushType: pushType)
        }
        // `asDefault`, read before the push: a phone that acted as a default one gives what a default phone gives.
        // The outcome is stored from inside, not returned through the registry's generic result: that copied it.
        var walked: DeviceOutcome?
        let asDefault = phones.walk(phoneID) { phone in
            // What the clock settled (storage, held pushes) before this push arrived, then what this push does.
            walk.events = phone.settle(now: now, setup: setup)
            walked = walk.run(on: &phone)
            return ((), walk.changed)
        }.actedAsDefault
        // Boxed after the lock, and only when the last walk on the connection did not end the same way.
        guard let walked else { return nil }
        let box = memo.outcomeBox(
            walked, number: walk.number, events: walk.events, unregisteredSince: walk.unregisteredSince)
        if memoized == nil, !named, asDefault {
            if walk.changed {
                memo.keepDefaultPhone(.changes, for: request, pushType: pushType)
            } else if app.behaviour.hasNoCases, !walk.readLastOpened {
                memo.keepDefaultPhone(.outcome(box), for: request, pushType: pushType)
            }
        }
        return box
    }

    /// Settles every phone at the mock's clock (`Phone.settle`: storage, held pushes) and appends the events it gives
    /// to the journal, in order: the control API calls it before it reads or changes a phone and after a clock
    /// move, so that expiries and deliveries show without timers.
    func settlePhones() {
        let now = clock.now()
        let setup = world.phone
        let events = phones.settleAll(now: now) { $0.settle(now: now, setup: setup) }
        journal.append(events: events, receivedAt: now)
    }

    /// The push type named `name`, when the phone plays it beyond Live Activities (a switch: it runs per push,
    /// alert first).
    private static func phoneType(_ name: String) -> APNsPushType? {
        switch name {
        case "alert": .alert
        case "background": .background
        case "voip": .voip
        case "pushtotalk": .pushtotalk
        case "location": .location
        case "complication": .complication
        case "widgets": .widgets
        case "controls": .controls
        case "fileprovider": .fileprovider
        case "mdm": .mdm
        default: nil
        }
    }

    /// The app a push is for: its topic, without its push type's suffix (`.voip`, `.voip-ptt`, …).
    private static func bundleID(topic: String?, type: APNsPushType) -> String {
        guard let topic else { return "the app" }
        return type.bundleID(fromTopic: topic) ?? topic
    }
}

extension AppBehaviour {
    /// Whether what the app does never depends on the push beyond its payload, topic, type and priority (no
    /// `match:` cases, which may test the token or headers): the phone may reuse an outcome for a push like it.
    var hasNoCases: Bool {
        guard backgroundHandler.cases.isEmpty, voip.cases.isEmpty, pushToTalk.cases.isEmpty,
            locationExtension.cases.isEmpty
        else { return false }
        if case .present(let declared) = serviceExtension { return declared.handling.cases.isEmpty }
        return true
    }
}
