import Foundation

extension Phone {
    /// Settles the phone at `now`: the background pushes it holds for a spent budget (`settleHeld`), and APNs's
    /// storage (`settleStorage`). Answers the events in the order of their moments on the mock's clock.
    ///
    /// There are no timers: whoever touches the phone (a push to it, a `PATCH`, a `GET` of phones, a clock move)
    /// settles it first, so the events appear when the mock's clock or the phone's state moves.
    mutating func settle(now: Date, setup: PhoneSetup) -> [DeviceEvent] {
        if stored.isEmpty && held.isEmpty { return [] }
        let launched = settleHeld(now: now, settings: setup.settings)
        return DeviceEvent.inOrder(launched + settleStorage(now: now, setup: setup))
    }

    /// Whether `settle` has something to do at `now`: a stored push the phone can take or that expired, or a held
    /// push (whose budget window may have room). One look, for `PhoneRegistry.settleAll`.
    func hasSomethingDue(now: Date) -> Bool {
        !held.isEmpty || (!stored.isEmpty && (state.online || stored.values.contains { now >= $0.expiresAt }))
    }

    /// Under `heldRelease: nextWindow`, launches each push held for a spent budget once the budget window has room
    /// again (phone.md §4, "Held pushes"): at the moment the launch that filled the window leaves it, and counting
    /// against the budget from then on. The oldest held push first; none while Low Power Mode is on (it would be
    /// held again).
    mutating func settleHeld(now: Date, settings: SimulationSettings) -> [DeviceEvent] {
        guard settings.heldRelease == .nextWindow, let budget = settings.backgroundBudget, !state.lowPowerMode else {
            return []
        }
        let window = settings.backgroundBudgetWindow
        var events: [DeviceEvent] = []
        for (bundleID, push) in held.sorted(by: { ($0.value.at, $0.key) < ($1.value.at, $1.key) })
        where push.rule == .backgroundBudget {
            let inWindow = backgroundLaunches.filter { $0 > push.at.addingTimeInterval(-window) }
            var at = push.at
            if inWindow.count >= budget { at = max(at, inWindow[inWindow.count - budget].addingTimeInterval(window)) }
            guard at <= now else { continue }
            held[bundleID] = nil
            let index = backgroundLaunches.firstIndex { $0 > at } ?? backgroundLaunches.count
            backgroundLaunches.insert(at, at: index)
            let text = ScenarioLoader.Reader.durationText(window)
            events.append(
                DeviceEvent(
                    push.number, at: at,
                    DeviceOutcome(
                        .launched, rule: .backgroundHeldLaunched,
                        reason: "the background budget (\(budget) per \(text)) has room again: iOS launches "
                            + "\(bundleID) for the push it held (heldRelease: nextWindow)")))
        }
        pruneBackground(now: now, budgetWindow: window)
        return events
    }

    /// What the person's change from `before` does to the pushes the phone holds (phone.md §2, §4 "Held pushes"):
    /// opening the app launches its held push, and so does the end of Low Power Mode for a push it held; a
    /// force-quit drops it. Answers the pushes let go, by app, and their events at `now`.
    mutating func releaseHeld(
        from before: PhoneState, now: Date
    ) -> (released: [(app: String, push: UInt64?)], events: [DeviceEvent]) {
        var released: [(app: String, push: UInt64?)] = []
        var events: [DeviceEvent] = []
        for (bundleID, push) in held.sorted(by: { $0.key < $1.key }) {
            let was = before.app(bundleID).state
            let app = state.app(bundleID).state
            let outcome: DeviceOutcome
            if app == .forceQuit && was != .forceQuit {
                outcome = DeviceOutcome(
                    .dropped, rule: .backgroundHeldDiscarded,
                    reason: "the person force-quit \(bundleID): iOS drops the background push it held for it")
            } else if app == .foreground && was != .foreground {
                outcome = DeviceOutcome(
                    .launched, rule: .backgroundHeldLaunched,
                    reason: "the person opened \(bundleID): iOS hands it the background push it held")
            } else if before.lowPowerMode && !state.lowPowerMode && push.rule == .backgroundLowPower {
                outcome = DeviceOutcome(
                    .launched, rule: .backgroundHeldLaunched,
                    reason: "Low Power Mode ended: iOS launches \(bundleID) for the background push it held")
            } else {
                continue
            }
            held[bundleID] = nil
            released.append((bundleID, push.sequence))
            events.append(DeviceEvent(push.number, at: now, outcome))
        }
        return (released, events)
    }
}
