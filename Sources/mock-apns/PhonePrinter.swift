import Foundation
import MockAPNs

/// Prints simulated phones for people, or as JSON lines for tools (`mock-apns phones`, `mock-apns phone`).
struct PhonePrinter {
    let json: Bool

    /// A phone: its state, its background counts, and each app with its notification list (newest first).
    func print(_ phone: PhoneSnapshot, notifications: Int = 10) {
        if json { return Swift.print(phone.json.jsonText) }
        Swift.print(Self.heading(phone))
        Swift.print("  " + Self.stateText(phone.state))
        let background = phone.background
        let budget = background.budget.map { "\($0) per \(Self.duration(background.window))" } ?? "unlimited"
        Swift.print(
            "  background pushes in the last hour: \(background.pushesLastHour); launches counted: "
                + "\(background.launchesInWindow) (budget \(budget))")
        for app in phone.apps {
            var line = "  \(app.bundleID): \(Self.appText(app.onPhone))"
            if let badge = app.badge { line += ", badge \(badge)" }
            if let held = app.held {
                line += ", holds " + (held.sequence.map { "#\($0)" } ?? "a push") + " (\(held.rule.id))"
            }
            for stored in app.stored {
                line += ", APNs stores " + (stored.sequence.map { "#\($0)" } ?? "a push") + " until "
                    + RecordPrinter.timeText(stored.expiresAt)
            }
            line += ", \(app.notificationCount) notification\(app.notificationCount == 1 ? "" : "s")"
            Swift.print(line)
            for notification in app.notifications.prefix(notifications) {
                let text = [notification.title, notification.subtitle, notification.body].compactMap { $0 }
                    .map { "\"\($0)\"" }.joined(separator: " / ")
                // A communication notification shows its sender first, as the phone does.
                let sender = notification.communicationSender.map { "from \($0) " } ?? ""
                Swift.print(
                    "    #\(notification.sequence) \(RecordPrinter.timeText(notification.at)) "
                        + "\(notification.outcome.rawValue) \(sender)\(text)")
            }
            if app.notificationCount > notifications {
                Swift.print("    … \(app.notificationCount - notifications) older (--json lists them)")
            }
        }
    }

    /// `phone alice (declared): tokens 5984…1979`.
    static func heading(_ phone: PhoneSnapshot) -> String {
        let tokens = phone.tokens.map { $0.count > 16 ? "\($0.prefix(6))…\($0.suffix(6))" : $0 }
        return "phone \(phone.id)" + (phone.declared ? " (declared)" : "")
            + (tokens.isEmpty ? "" : ": tokens \(tokens.joined(separator: ", "))")
    }

    /// `online, unlocked, Low Power Mode off, Focus Sleep, a call in progress`.
    static func stateText(_ state: PhoneState) -> String {
        var parts = [state.online ? "online" : "offline", state.locked ? "locked" : "unlocked"]
        parts.append("Low Power Mode \(state.lowPowerMode ? "on" : "off")")
        parts.append(state.focus.map { "Focus \($0.name)" } ?? "no Focus")
        if state.scheduledSummary { parts.append("Scheduled Summary") }
        if state.callActive { parts.append("a call in progress") }
        return parts.joined(separator: ", ")
    }

    /// `background, authorized`, with what differs from the defaults.
    static func appText(_ app: AppOnPhone) -> String {
        var parts = [app.installed ? app.state.rawValue : "not installed", app.authorization.rawValue]
        if case .object(let settings) = app.scenarioJSON["settings"] ?? .null, !settings.isEmpty {
            parts.append("settings " + JSONValue.object(settings).jsonText)
        }
        if !app.backgroundAppRefresh { parts.append("Background App Refresh off") }
        if app.debugger { parts.append("under the debugger") }
        if app.voipFailures > 0 { parts.append("\(app.voipFailures) unreported VoIP pushes") }
        if app.locationAuthorization != .always { parts.append("location \(app.locationAuthorization.rawValue)") }
        if app.pttChannel == .left { parts.append("left its Push to Talk channel") }
        if !app.complicationOnFace { parts.append("complication not on the watch face") }
        if let lastOpened = app.lastOpened { parts.append("last opened \(Timestamp.text(lastOpened))") }
        return parts.joined(separator: ", ")
    }

    private static func duration(_ seconds: TimeInterval) -> String {
        seconds.truncatingRemainder(dividingBy: 3600) == 0 ? "\(Int(seconds / 3600))h" : "\(Int(seconds))s"
    }
}
