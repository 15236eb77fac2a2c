import Foundation

extension PhoneWalk {
    /// What the phone would show of an alert: as sent, then as the service extension left it.
    struct AlertContent {
        /// The title (or its localized key).
        var title: String?
        /// The subtitle (or its localized key).
        var subtitle: String?
        /// The body (or its localized key).
        var body: String?
        /// The sound it plays.
        var sound: PushFacts.Sound?
        /// The badge it sets.
        var badge: Int?

        /// The content as the push sent it.
        init(_ facts: PushFacts) {
            title = facts.title
            subtitle = facts.subtitle
            body = facts.body
            sound = facts.sound
            badge = facts.badge
        }

        /// A title, subtitle or body (or their localized keys).
        var hasText: Bool { title != nil || subtitle != nil || body != nil }
    }

    /// The alert walk (phone.md §4, Alert): authorization and an App Clip's 8 hours → the service extension →
    /// something to show → the foreground delegate → the settings → the level → a Focus → the summary → shown;
    /// `provisional` then caps a shown alert at `shownQuietly` (`provisionalCap`).
    mutating func alert(on phone: inout Phone) -> DeviceOutcome {
        let appState = phone.state.app(bundleID)
        var content = AlertContent(facts)
        var step = alertStep(phone: phone.state, appState: appState, content: &content)
        if appState.authorization == .provisional, step.kind == .shown { step = provisionalCap(step, phone.state) }
        trace.append(step.rule)
        var related: UInt64?
        if step.kind == .shown || step.kind == .shownQuietly || step.kind == .withheld {
            presentationModifiers(step.kind, content: content, phone: &phone, related: &related)
        }
        if facts.contentAvailable { launchPart(on: &phone) }
        return outcome(step, related: related)
    }

    /// The walk up to its outcome.
    private mutating func alertStep(
        phone: PhoneState, appState: AppOnPhone, content: inout AlertContent
    ) -> Step {
        // "notDetermined: nothing is shown" (doc, `UNAuthorizationStatus`).
        if appState.authorization == .notDetermined {
            return Step(
                .notShown, .notAuthorized,
                "\(bundleID) has not asked for permission to notify (authorization notDetermined): nothing is shown")
        }
        // "An App Clip counts as authorized for 8 h after each launch" (doc, Enabling notifications in App Clips).
        if let expired = ephemeralStep(appState) { return expired }
        if facts.mutableContent, let refusal = serviceExtension(&content, phone: phone, appState: appState) {
            return refusal
        }
        // "No alert text (localized keys count) or sound: nothing; a badge only: the badge" (doc, *Generating*).
        guard content.hasText || content.sound != nil else {
            if let badge = content.badge {
                if appState.settings.badges {
                    return Step(
                        .applied, .badgeOnly,
                        "only a badge: \(bundleID)'s badge is set to \(badge); there is no alert text or sound to show")
                }
                modifier(.badgeOff, warning: false, "the person turned badges off for \(bundleID)")
            }
            let missing =
                facts.apsProblem
                ?? (content.badge == nil
                    ? "aps has no alert text (title, subtitle, body or a loc-key), no sound and no badge"
                    : "aps has only a badge, and badges are off for \(bundleID)")
            return Step(.notShown, .nothingToShow, "\(missing): there is nothing to show")
        }
        if appState.state == .foreground {
            switch app.willPresent {
            case .notImplemented:
                return Step(
                    .notShown, .foregroundNotPresented,
                    "\(bundleID) is in the foreground and its delegate does not implement willPresent: nothing is "
                        + "presented")
            case .options(let options) where options.isEmpty:
                return Step(
                    .notShown, .foregroundNotPresented,
                    "\(bundleID) is in the foreground and willPresent returns no options: nothing is presented")
            case .options(let options) where options == [.list]:
                return Step(
                    .shownQuietly, .foregroundListOnly,
                    "\(bundleID) is in the foreground and willPresent returns [list]: into Notification Center only")
            case .options(let options):
                let names = AppBehaviour.PresentOption.allCases.filter(options.contains).map(\.rawValue)
                modifier(
                    .foregroundPresented, warning: false,
                    "in the foreground, willPresent returns [\(names.joined(separator: ", "))]")
                if !options.contains(.sound) { content.sound = nil }
                if !options.contains(.badge) { content.badge = nil }
            case .noDelegate:
                notes.append(
                    "open: willPresent not declared: in the foreground the notification is presented with its own "
                        + "options")
            }
        }
        let settings = appState.settings
        // "Settings are enforced part by part" (doc, `UNNotificationSettings`).
        if !settings.alerts {
            if settings.notificationCenter || settings.lockScreen {
                return Step(
                    .shownQuietly, .alertsOffListOnly,
                    "the person turned alerts (banners) off for \(bundleID): it goes to Notification Center and the "
                        + "Lock Screen only")
            }
            return Step(
                .notShown, .alertsOff,
                "the person turned alerts, the Lock Screen and Notification Center off for \(bundleID): nothing is "
                    + "shown")
        }
        let level = interruptionLevel(settings)
        if level == "passive" {
            return Step(
                .shownQuietly, .passive,
                "interruption-level passive: into Notification Center without a sound, banner or screen wake")
        }
        if let focus = phone.focus, level != "critical", !focus.allowedApps.contains(bundleID) {
            if level == "time-sensitive", focus.timeSensitive {
                return Step(
                    .shown, .focusTimeSensitive,
                    "the Focus \(focus.name) is on and lets Time Sensitive notifications through: shown")
            }
            // "sender in allowedPeople" (phone.md §5; doc, Implementing communication notifications).
            if let sender = communication, focus.allowedPeople.contains(sender) {
                return Step(
                    .shown, .focusCommunication,
                    "the Focus \(focus.name) is on and allows \(sender): their communication notification breaks "
                        + "through: shown")
            }
            let notAllowed = communication.map { "\(bundleID) or \($0)" } ?? bundleID
            return Step(
                .withheld, .focusNotAllowed,
                "the Focus \(focus.name) is on and does not allow \(notAllowed): delivered silently to Notification "
                    + "Center")
        }
        if let focus = phone.focus, let filter = focus.filter, let criteria = facts.filterCriteria,
            criteria != filter
        {
            return Step(
                .withheld, .focusFilter,
                "filter-criteria '\(criteria)' is not the Focus \(focus.name)'s filter '\(filter)': withheld")
        }
        // "passive or active, not communication" (phone.md §5).
        if phone.scheduledSummary, settings.inSummary, level == "active", communication == nil {
            return Step(
                .withheld, .scheduledSummary,
                "\(bundleID) is in the person's Scheduled Summary: delivered with the next summary (its time is not "
                    + "simulated)")
        }
        if level == "critical" {
            return Step(
                .shown, .criticalAlert,
                "a critical alert: it sounds past the mute switch and any Focus"
                    + (content.sound == nil ? ", with the default critical sound" : ""))
        }
        return Step(.shown, .alertShown, shownText(content, settings: settings, locked: phone.locked))
    }

    /// "`provisional` caps the result at `shownQuietly`" (phone.md §4, Alert; doc, *Asking permission*): a step
    /// that would show the alert becomes `provisional`, after the Focus and the level have had their say. A rule
    /// that would have broken through (a critical alert, a Focus's Time Sensitive or communication exception) stays
    /// in the trace before it, so `fired:` still finds it and the reason says what was capped.
    private mutating func provisionalCap(_ step: Step, _ phone: PhoneState) -> Step {
        let quietly = "delivered quietly to Notification Center, no sound, banner or Lock Screen"
        let focus = phone.focus.map { "the Focus \($0.name)" } ?? "the Focus"
        let capped: String
        switch step.rule {
        case .criticalAlert: capped = "a critical alert"
        case .focusTimeSensitive: capped = "a Time Sensitive notification that \(focus) lets through"
        case .focusCommunication:
            capped = "a communication notification from \(communication ?? "a person") that \(focus) lets through"
        default:
            return Step(.shownQuietly, .provisional, "\(bundleID) is authorized provisionally: \(quietly)")
        }
        trace.append(step.rule)
        return Step(
            .shownQuietly, .provisional, "\(bundleID) is authorized provisionally: even \(capped) is \(quietly)")
    }

    /// The level the phone gives the alert (phone.md §4, "The level"): critical and Time Sensitive need the
    /// entitlement and the person's switch; without them it is active.
    private mutating func interruptionLevel(_ settings: NotificationSettings) -> String {
        if facts.asksCritical {
            let asked = facts.interruptionLevel == "critical" ? "interruption-level is critical" : "sound.critical is 1"
            if !has(.criticalAlerts, for: "a critical alert") {
                if self.settings.criticalWithoutEntitlement == .honour {
                    notes.append("open: criticalWithoutEntitlement = honour")
                    return "critical"
                }
                modifier(
                    .criticalNoEntitlement, warning: true,
                    "\(asked) but \(bundleID) has no critical-alerts entitlement: shown as an ordinary alert, not "
                        + "past the mute switch or a Focus")
                return "active"
            }
            if !settings.criticalAlerts {
                modifier(
                    .criticalNotAllowed, warning: false,
                    "the person switched critical alerts off for \(bundleID): an ordinary alert")
                return "active"
            }
            return "critical"
        }
        switch facts.interruptionLevel {
        case "time-sensitive":
            if !has(.timeSensitive, for: "a Time Sensitive alert") {
                if self.settings.timeSensitiveWithoutEntitlement == .honour {
                    notes.append("open: timeSensitiveWithoutEntitlement = honour")
                    return "time-sensitive"
                }
                modifier(
                    .timeSensitiveNoEntitlement, warning: true,
                    "interruption-level is time-sensitive but \(bundleID) has no Time Sensitive capability: an "
                        + "ordinary alert, held back by a Focus")
                return "active"
            }
            if !settings.timeSensitive {
                modifier(
                    .timeSensitiveOff, warning: false,
                    "the person switched Time Sensitive off for \(bundleID): an ordinary alert")
                return "active"
            }
            return "time-sensitive"
        case "passive": return "passive"
        default: return "active"
        }
    }

    /// "shown: a banner, the Lock Screen and Notification Center, sound chime.caf, badge 3".
    private func shownText(_ content: AlertContent, settings: NotificationSettings, locked: Bool) -> String {
        var places = ["a banner"]
        if settings.lockScreen { places.append("the Lock Screen") }
        if settings.notificationCenter { places.append("Notification Center") }
        var text = "shown: " + Self.list(places)
        if let sound = content.sound, settings.sounds { text += ", sound \(sound.name)" }
        if let badge = content.badge, settings.badges { text += ", badge \(badge)" }
        return text
    }

    /// The modifiers on what is shown (phone.md §4 and §5): parts the settings leave out, the sound, the category,
    /// and the collapse id.
    mutating func presentationModifiers(
        _ kind: DeviceOutcome.Kind, content: AlertContent, phone: inout Phone, related: inout UInt64?
    ) {
        let appState = phone.state.app(bundleID)
        let settings = appState.settings
        if kind == .shown, content.sound != nil, !settings.sounds {
            modifier(.soundOff, warning: false, "the person turned sounds off for \(bundleID): no sound")
        }
        if content.badge != nil, !settings.badges {
            modifier(.badgeOff, warning: false, "the person turned badges off for \(bundleID): the badge is not set")
        }
        if kind == .shown, phone.state.locked, settings.showPreviews != .always {
            modifier(
                .previewHidden, warning: false,
                "the phone is locked and previews show \(settings.showPreviews.rawValue): the Lock Screen shows "
                    + "\(bundleID)'s name, not the text")
        }
        if let sound = content.sound, sound.name != "default" { checkSound(sound) }
        if let category = facts.category, let categories = app.categories, !categories.contains(category) {
            modifier(
                .categoryUnknown, warning: true,
                "category '\(category)' is not one \(bundleID) registers: the notification has no action buttons")
        }
        if let collapseID = request.fields.collapseID {
            changed = true
            let key = Phone.CollapseKey(bundleID: bundleID, collapseID: collapseID)
            if let replaced = phone.collapse(key, to: pushNumber()) {
                related = replaced.sequence
                events.append(
                    DeviceEvent(
                        replaced, at: now,
                        DeviceOutcome(
                            .replaced, rule: .collapseReplaced,
                            reason: "a newer notification with apns-collapse-id \(collapseID) replaced it on the list"),
                        related: pushNumber()))
                let which = replaced.sequence.map { "the notification of #\($0)" } ?? "the earlier notification"
                modifier(
                    .collapseReplaced, warning: false,
                    "replaced \(which) (apns-collapse-id \(collapseID)); it moves to the top")
                notable = notable ?? .collapseReplaced
            }
        }
    }

    /// `sound-not-bundled` / `sound-unplayable` against the app's `sounds`; undeclared: a note.
    private mutating func checkSound(_ sound: PushFacts.Sound) {
        guard let sounds = app.sounds else {
            notes.append("\(bundleID) declares no sounds: \(sound.name) is not checked")
            return
        }
        guard let entry = sounds[sound.name] else {
            modifier(
                .soundNotBundled, warning: true,
                "\(sound.name) is not a sound \(bundleID) bundles: the default sound plays")
            return
        }
        let ext = sound.name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if !["aiff", "aif", "wav", "caf"].contains(ext) {
            modifier(
                .soundUnplayable, warning: true,
                "\(sound.name) is not an aiff, wav or caf file: the default sound plays")
        } else if let length = entry, length > 30 {
            modifier(
                .soundUnplayable, warning: true,
                "\(sound.name) lasts \(Self.seconds(length)), over 30 s: the default sound plays")
        }
    }

    /// "mutable-content is 1 but aps.alert has no …" (phone.md §7 example 2).
    static let nseNoAlertText =
        "mutable-content is 1 but aps.alert has no title, subtitle or body, localized or not: the service "
        + "extension does not run, and there is nothing to show"

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    /// `45s`, `2.5s`.
    static func seconds(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? "\(Int64(value))s" : "\(value)s"
    }
}
