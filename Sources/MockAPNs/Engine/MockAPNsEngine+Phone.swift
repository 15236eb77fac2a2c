import Foundation

extension MockAPNsEngine {
    /// What the simulated phone does with `request`, a push of a type other than `liveactivity` accepted for
    /// `token` (phone.md), under the world's phone `setup` and `devices`: `nil` for other push types, or with the
    /// simulation off (`simulation.enabled: false`). The two parts are passed, not the world: a copy of the world
    /// per push was measurable.
    ///
    /// The token is the validated `DeviceToken` (lower-cased), never the path's text. A push to a phone the
    /// registry does not keep, that leaves nothing behind, is walked on a default phone without a lock, and what
    /// it gave is kept in the connection's memo for the next push like it (the provider's usual stream of the same
    /// payload): an ordinary push then costs the phone a few comparisons.
    func phoneOutcome(
        of request: APNsRequest.Content, to token: DeviceToken, pushType: String?, setup: PhoneSetup,
        devices: [String: Device], memo: ValidationMemo, now: Date
    ) -> DeviceOutcomeBox? {
        guard setup.enabled, let pushType, let type = Self.phoneType(pushType) else { return nil }
        let device = devices.isEmpty ? nil : devices[token.hex]
        let fastPath = device?.phone == nil && phones.isEmpty
        if fastPath, let box = memo.defaultPhoneOutcome(request, pushType: pushType) { return box }
        let phoneID = device?.phone ?? token.hex
        let bundleID = Self.bundleID(topic: request.fields.topic ?? device?.bundleID, type: type)
        let app = setup.apps.isEmpty ? AppBehaviour() : setup.app(bundleID)
        let walk = PhoneWalk(
            request: request, facts: memo.pushFacts(request.body), pushType: type, bundleID: bundleID,
            token: token.hex, app: app, settings: setup.settings, now: now, loadedAt: setup.loadedAt)
        if fastPath {
            var defaultPhone = Phone(id: phoneID, declared: false, state: PhoneState())
            var tried = walk
            guard let outcome = tried.run(on: &defaultPhone) else { return nil }
            if !tried.changed {
                let box = DeviceOutcomeBox(outcome)
                if app.hasNoCases, !tried.readLastOpened {
                    memo.keepDefaultPhoneOutcome(box, for: request, pushType: pushType)
                }
                return box
            }
        }
        return phones.walk(phoneID) { phone in
            var walked = walk
            // What the clock settled (storage, held pushes) before this push arrived, then what this push does.
            walked.events = phone.settle(now: now, setup: setup)
            let outcome = walked.run(on: &phone)
            let box = outcome.map {
                DeviceOutcomeBox(
                    $0, number: walked.number, events: walked.events, unregisteredSince: walked.unregisteredSince)
            }
            return (box, walked.changed)
        }
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
