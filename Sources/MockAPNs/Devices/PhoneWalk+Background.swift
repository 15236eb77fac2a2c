import Foundation

extension PhoneWalk {
    /// A background push (`content-available: 1` alone): the launch walk, then the over-rate warning.
    mutating func background(on phone: inout Phone) -> DeviceOutcome {
        changed = true
        phone.pruneBackground(now: now, budgetWindow: settings.backgroundBudgetWindow)
        Phone.note(now, in: &phone.backgroundPushes)
        let step = launchStep(on: &phone, countsAgainstBudget: true)
        trace.append(step.rule)
        // "Apple advises two or three an hour at most" (doc, *Background updates*): a warning, nothing held.
        let recent = phone.backgroundPushes.count
        if recent > SimulationSettings.overRateCount {
            let warning = texts.overRate(count: recent) {
                // The phone remembers at most `backgroundPushLimit` of them.
                let count = recent < Phone.backgroundPushLimit ? "\(recent)" : "at least \(recent)"
                return Self.worded(
                    .backgroundOverRate,
                    "\(count) background pushes reached this phone within 1h; Apple advises two or three an hour "
                        + "at most; iOS may throttle")
            }
            modifier(.backgroundOverRate, warning: true, worded: warning)
        }
        return outcome(step, related: nil)
    }

    /// The launch of an alert with `content-available: 1` (phone.md §4: "the background walk runs for the launch
    /// and its rule joins the trace").
    mutating func launchPart(on phone: inout Phone) {
        let counts = settings.backgroundBudgetCountsAlerts && priority == 5
        if counts || phone.state.lowPowerMode {
            changed = true
            phone.pruneBackground(now: now, budgetWindow: settings.backgroundBudgetWindow)
        }
        let step = launchStep(on: &phone, countsAgainstBudget: counts)
        trace.append(step.rule)
        notes.append("the launch (content-available): \(step.kind.rawValue), \(step.reason)")
    }

    /// The background walk (phone.md §4, Background): foreground → force-quit → background mode → Background App
    /// Refresh → not opened for `inactiveAppAfter` → priority 10 → Low Power Mode → the budget → launched.
    private mutating func launchStep(on phone: inout Phone, countsAgainstBudget: Bool) -> Step {
        let appState = phone.state.app(bundleID)
        if appState.state == .foreground {
            return Step(
                .launched, .backgroundForeground,
                "\(bundleID) is in the foreground: its handler is called (no budget is spent)")
        }
        if appState.state == .forceQuit {
            return Step(
                .notLaunched, .backgroundForceQuit,
                "the person force-quit \(bundleID); iOS does not launch it for background pushes until it is opened "
                    + "or the phone restarts")
        }
        if let modes = app.backgroundModes, !modes.contains(.remoteNotification) {
            return Step(
                .notLaunched, .backgroundModeMissing,
                "\(bundleID) does not have the remote-notification background mode: it is not launched")
        }
        if !appState.backgroundAppRefresh {
            return Step(
                .notLaunched, .backgroundRefreshOff,
                "Background App Refresh is off for \(bundleID): it is not launched")
        }
        // "not opened for inactiveAppAfter" (seen, forums/776933; open: how long).
        if let inactive = inactiveStep(appState) { return inactive }
        // "background: priority 5; Apple calls priority 10 an error" (apns-reference.md §3): the push type's rule.
        if pushType == .background, priority == 10 {
            let text =
                "a background push with apns-priority 10; APNs answers 200, but Apple calls it an error and asks for 5"
            if settings.backgroundPriorityTen == .notLaunched {
                notes.append("open: backgroundPriorityTen = notLaunched")
                return Step(.notLaunched, .backgroundPriorityTen, text + ": not launched")
            }
            modifier(.backgroundPriorityTen, warning: true, text)
        }
        if phone.state.lowPowerMode {
            return hold(
                on: &phone, .backgroundLowPower,
                "Low Power Mode is on: iOS holds the push for \(bundleID) until it ends or the app is opened")
        }
        if countsAgainstBudget, let budget = settings.backgroundBudget {
            if appState.debugger {
                notes.append("\(bundleID) runs under the debugger: the background budget does not apply")
            } else if phone.backgroundLaunches.count >= budget {
                let window = ScenarioLoader.Reader.durationText(settings.backgroundBudgetWindow)
                return hold(
                    on: &phone, .backgroundBudget,
                    "the phone's background budget (\(budget) per \(window), all apps) is spent; held until it "
                        + "renews or the app is opened")
            } else {
                changed = true
                Phone.note(now, in: &phone.backgroundLaunches)
            }
        }
        if app.backgroundHandler.action(for: request, payload: &payload) == .timesOut {
            return Step(
                .terminated, .backgroundHandlerTimeout,
                "\(bundleID)'s handler did not call its completion handler within 30 s: iOS kills it")
        }
        let wasRunning = appState.state != .notRunning
        let reason = texts.launchReason(bundleID: bundleID, wasRunning: wasRunning) {
            let woken = wasRunning ? "woken" : "launched in the background (it was not running)"
            return "\(bundleID) is \(woken) to handle the push"
        }
        return Step(.launched, .backgroundLaunched, reason)
    }

    /// Holds the push for the app (one per app: a newer one replaces it).
    private mutating func hold(on phone: inout Phone, _ rule: DeviceRule, _ reason: String) -> Step {
        changed = true
        let number = pushNumber()
        if let earlier = phone.held[bundleID] {
            let which = earlier.sequence.map { "#\($0)" } ?? "an earlier push"
            notes.append("replaces \(which), held for \(bundleID) before it (one held push per app)")
            events.append(
                DeviceEvent(
                    earlier.number, at: now,
                    DeviceOutcome(
                        .replaced, rule: .backgroundCoalesced,
                        reason: "a newer background push for \(bundleID) is held instead: iOS keeps one per app"),
                    related: number))
        } else {
            evictOldest(
                from: &phone.held, since: \.at, number: \.number, rule: .backgroundCoalesced, for: number,
                "phone \(phone.id) already held background pushes for \(Phone.storedSlotLimit) apps")
        }
        phone.held[bundleID] = Phone.HeldPush(number: number, at: now, rule: rule)
        return Step(.held, rule, reason)
    }
}
