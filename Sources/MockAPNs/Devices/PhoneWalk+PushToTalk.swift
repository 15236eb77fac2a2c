import Foundation

extension PhoneWalk {
    /// The Push to Talk walk (phone.md §4, "The others"): no channel → force-quit, by `pttAfterForceQuit` → the
    /// app's `incomingPushResult`: the system activates audio, or the app leaves the channel.
    mutating func pushToTalk(on phone: inout Phone) -> DeviceOutcome {
        let appState = phone.state.app(bundleID)
        // "The token works only while someone is in the channel" (doc, Creating a Push to Talk app).
        if appState.pttChannel == .left {
            return decided(
                .dropped, .pttNoChannel,
                "\(bundleID) is not in a Push to Talk channel on phone \(phone.id) (pttChannel: left): the PTT token "
                    + "works only while the person is in a channel")
        }
        // No rule of the walk needs the entitlement (the phone issued the token); a declared list without it is
        // worth a note.
        if let entitlements = app.entitlements, !entitlements.contains(.pushToTalk) {
            notes.append(
                "\(bundleID) declares no pushToTalk entitlement: a real app without it would not get a PTT token")
        }
        // Whether iOS launches a force-quit app for a PTT push is open (forums/781909 against /780822).
        if appState.state == .forceQuit {
            notes.append("open: pttAfterForceQuit = \(settings.pttAfterForceQuit.rawValue)")
            if settings.pttAfterForceQuit == .drop {
                return decided(
                    .dropped, .pttForceQuit,
                    "the person force-quit \(bundleID): the Push to Talk push does not launch it "
                        + "(pttAfterForceQuit: drop)")
            }
            modifier(
                .pttForceQuit, warning: false,
                "the person force-quit \(bundleID); the Push to Talk push launches it in the background "
                    + "(pttAfterForceQuit: launch)")
        }
        switch app.pushToTalk.action(for: request, payload: &payload) {
        case .activeParticipant:
            return decided(
                .launched, .pttActiveParticipant,
                "\(bundleID) returned activeRemoteParticipant from incomingPushResult: the system activates the "
                    + "audio session and plays the speaker")
        case .leaveChannel:
            changed = true
            var updated = appState
            updated.pttChannel = .left
            if phone.state.apps[bundleID] != nil || phone.state.apps.count < PhoneState.appLimit {
                phone.state.apps[bundleID] = updated
            } else {
                notes.append("the phone keeps state for \(PhoneState.appLimit) apps at most: the channel is not left")
            }
            return decided(
                .launched, .pttLeaveChannel,
                "\(bundleID) returned leaveChannel from incomingPushResult: it leaves the channel (pttChannel is now "
                    + "left, and later Push to Talk pushes are dropped until it joins again)")
        }
    }
}
