extension PhoneWalk {
    /// The VoIP walk (phone.md §4, VoIP): suspended → reports the call → did not report, and had to or not.
    mutating func voip(on phone: inout Phone) -> DeviceOutcome {
        let appState = phone.state.app(bundleID)
        if let limit = settings.voipSuspendAfter, appState.voipFailures >= limit {
            notes.append("open: voipSuspendAfter = \(limit)")
            return decided(
                .notLaunched, .voipSuspended,
                "\(bundleID) failed to report \(appState.voipFailures) VoIP pushes as calls: iOS stopped launching "
                    + "it for VoIP pushes (a reinstall lifts it)")
        }
        if appState.state == .forceQuit {
            notes.append("\(bundleID) was force-quit; VoIP pushes still launch it (twilio/voice-quickstart-ios#41)")
        }
        let handling = app.voip.action(for: request, payload: &payload)
        if handling.reports {
            if let focus = phone.state.focus, let caller = handling.caller, !focus.allowedPeople.contains(caller) {
                modifier(
                    .voipCallSilenced, warning: false,
                    "the Focus \(focus.name) is on and \(caller) is not in its allowed people: CallKit may refuse the "
                        + "call (filteredByDoNotDisturb)")
            }
            return decided(
                .reported, .voipReported,
                "\(bundleID) reported the call to CallKit: the phone shows the incoming call")
        }
        let exempt: String? =
            settings.voipMustReport == .always
            ? nil
            : appState.state == .foreground
                ? "\(bundleID) is in the foreground" : phone.state.callActive ? "a call is in progress" : late
        if let exempt {
            notes.append("open: voipMustReport = ios26")
            return decided(
                .launched, .voipNoReportNeeded,
                "\(bundleID) did not report a call, and did not have to: \(exempt) (mustReport is false)")
        }
        if settings.voipMustReport == .always, let late {
            notes.append("open: voipMustReport = always: \(late), which iOS 26.4 exempts from reporting; not here")
        }
        changed = true
        let failures = appState.voipFailures
        if phone.state.apps[bundleID] != nil || phone.state.apps.count < PhoneState.appLimit {
            var updated = appState
            updated.voipFailures = failures &+ 1
            phone.state.apps[bundleID] = updated
        } else {
            notes.append("the phone keeps state for \(PhoneState.appLimit) apps at most: this failure is not counted")
        }
        if failures >= 1 {
            modifier(
                .voipSuspensionRisk, warning: true,
                "\(bundleID) has now failed to report \(failures + 1) VoIP pushes as calls: iOS may stop delivering "
                    + "VoIP pushes to it")
        }
        return decided(
            .terminated, .voipNotReported,
            "\(bundleID) did not report the call to CallKit before the delegate returned: iOS kills it "
                + "(NSInternalInconsistencyException)")
    }
}
