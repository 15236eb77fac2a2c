extension PhoneWalk {
    /// The notification service extension (phone.md §4, "Service extension", `mutable-content: 1`): whether it
    /// runs, and the content it leaves in `content`; a step when the walk ends here (no alert text and nothing
    /// else, or a suppression).
    mutating func serviceExtension(
        _ content: inout AlertContent, phone: PhoneState, appState: AppOnPhone
    ) -> Step? {
        // "It runs only when the alert has text (localized keys count)" (doc, *Modifying content*).
        guard content.hasText else {
            if content.sound == nil && content.badge == nil { return Step(.notShown, .nseNoAlert, Self.nseNoAlertText) }
            modifier(
                .nseNoAlert, warning: true,
                "mutable-content is 1 but aps.alert has no title, subtitle or body: the service extension does not "
                    + "run")
            return nil
        }
        let settings = appState.settings
        // "If alerts are disabled for your app": alerts, Lock Screen and Notification Center all off (open).
        if !settings.alerts && !settings.lockScreen && !settings.notificationCenter {
            modifier(
                .nseAlertsOff, warning: false,
                "alerts are off for \(bundleID): the service extension does not run")
            return nil
        }
        // "App Clips do not support Notification Service Extensions" (seen, OneSignal "App Clip support").
        if app.appClip {
            modifier(
                .nseAppClip, warning: false,
                "\(bundleID) is an App Clip, and App Clips have no service extension: the content is shown as sent")
            return nil
        }
        if appState.authorization == .provisional, self.settings.serviceExtensionWhenProvisional == .skip {
            notes.append("open: serviceExtensionWhenProvisional = skip: the service extension does not run")
            return nil
        }
        let declared: ServiceExtension
        switch app.serviceExtension {
        case .undeclared:
            modifier(
                .nseUndeclared, warning: false,
                "\(bundleID) does not declare what its service extension does: the content is shown as sent")
            return nil
        case .absent:
            modifier(
                .nseNone, warning: false,
                "\(bundleID) has no service extension: the content is shown as sent")
            return nil
        case .present(let present):
            declared = present
        }
        if let peak = declared.peakMemory, peak > self.settings.serviceExtensionMemoryLimit {
            modifier(
                .nseKilled, warning: true,
                "the service extension uses \(ByteSizeText.text(peak)), over the "
                    + "\(ByteSizeText.text(self.settings.serviceExtensionMemoryLimit)) "
                    + "limit (serviceExtensionMemoryLimit): iOS kills it and shows the original content")
            return nil
        }
        if declared.protectedData, phone.locked {
            modifier(
                .nseLockedData, warning: true,
                "the phone is locked and the service extension needs protected data: it fails and the original "
                    + "content is shown")
            return nil
        }
        let handling = declared.handling.action(for: request, payload: &payload)
        switch handling.does {
        case .modify:
            apply(handling.set, to: &content)
            modifier(.nseModified, warning: false, "the service extension modified the content in time")
            if let sender = handling.communicationSender { makeCommunication(from: sender) }
        case .expire:
            apply(handling.set, to: &content)
            modifier(
                .nseExpiredFallback, warning: false,
                "the service extension ran out of time; serviceExtensionTimeWillExpire() handed back its best attempt")
            if let sender = handling.communicationSender { makeCommunication(from: sender) }
        case .hang:
            modifier(
                .nseExpiredOriginal, warning: true,
                "the service extension called neither handler in about 30 s: the original content is shown")
        case .crash:
            modifier(
                .nseKilled, warning: true,
                "the service extension crashed: the original content is shown")
        case .suppress:
            if has(.filtering, for: "suppressing a notification") {
                return Step(
                    .notShown, .nseSuppressed,
                    "the service extension handed back empty content and \(bundleID) has the filtering entitlement: "
                        + "nothing is shown")
            }
            modifier(
                .nseSuppressNoEntitlement, warning: true,
                "the service extension handed back empty content but \(bundleID) has no filtering entitlement: the "
                    + "original content is shown")
        }
        return nil
    }

    /// "A communication notification is one the extension turned into one" (phone.md §4; doc, Implementing
    /// communication notifications): with the `communication` entitlement the content it hands back is from
    /// `sender`; without it (`content.updating(from:)` fails), an ordinary notification, with a note.
    private mutating func makeCommunication(from sender: String) {
        guard has(.communication, for: "a communication notification") else {
            notes.append(
                "\(bundleID) has no communication entitlement (com.apple.developer.usernotifications.communication): "
                    + "the service extension cannot make a communication notification from \(sender); it is shown as "
                    + "an ordinary notification")
            return
        }
        communication = sender
    }

    /// Writes the parts `change` sets over `content`.
    private func apply(_ change: ServiceExtension.ContentChange, to content: inout AlertContent) {
        if let title = change.title { content.title = title }
        if let subtitle = change.subtitle { content.subtitle = subtitle }
        if let body = change.body { content.body = body }
        if let sound = change.sound {
            content.sound = PushFacts.Sound(name: sound, critical: content.sound?.critical ?? false)
        }
    }
}
