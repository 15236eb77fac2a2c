import Foundation

extension PhoneWalk {
    /// How long an App Clip's ephemeral permission lasts after each launch: "for up to 8 hours after each launch"
    /// (doc, Enabling notifications in App Clips; `NSAppClipRequestEphemeralUserNotification`).
    static let ephemeralWindow: TimeInterval = 8 * 3600

    /// `ephemeral-expired` (phone.md §4, Alert): an App Clip, or an app whose authorization is `ephemeral`, may
    /// notify for 8 hours after each launch; past them nothing is shown. `nil` within them (the walk goes on as
    /// for an authorized app, with a note), and for any other app.
    mutating func ephemeralStep(_ appState: AppOnPhone) -> Step? {
        guard app.appClip || appState.authorization == .ephemeral else { return nil }
        readLastOpened = true
        let opened = appState.lastOpened(loadedAt: loadedAt)
        let until = opened.addingTimeInterval(Self.ephemeralWindow)
        let what = app.appClip ? "\(bundleID) is an App Clip" : "\(bundleID)'s authorization is ephemeral"
        if !app.appClip {
            notes.append("authorization ephemeral is an App Clip's: \(bundleID) is taken as one for its 8 hours")
        }
        guard now > until else {
            notes.append(
                "\(what): it may notify until \(Timestamp.text(until)), 8h after it was last opened "
                    + "(\(Timestamp.text(opened)))")
            return nil
        }
        return Step(
            .notShown, .ephemeralExpired,
            "\(what), last opened \(Self.elapsed(since: opened, now: now)) ago (\(Timestamp.text(opened))): its "
                + "ephemeral permission to notify lasts 8h after each launch, so nothing is shown until the person "
                + "opens it again")
    }

    /// `background-app-inactive` (phone.md §4, Background): under `inactiveAppAfter`, an app the person has not
    /// opened for that long is not launched for background pushes; `nil` otherwise.
    mutating func inactiveStep(_ appState: AppOnPhone) -> Step? {
        guard let after = settings.inactiveAppAfter else { return nil }
        readLastOpened = true
        let opened = appState.lastOpened(loadedAt: loadedAt)
        guard now.timeIntervalSince(opened) > after else { return nil }
        notes.append("open: inactiveAppAfter = \(ScenarioLoader.Reader.durationText(after))")
        return Step(
            .notLaunched, .backgroundAppInactive,
            "\(bundleID) was last opened \(Self.elapsed(since: opened, now: now)) ago (\(Timestamp.text(opened))), "
                + "longer than inactiveAppAfter (\(ScenarioLoader.Reader.durationText(after))): iOS does not launch "
                + "it for background pushes until the person opens it")
    }

    /// The time from `opened` to `now` for people: hours and minutes from an hour on (`9h`, `8h1m`), minutes and
    /// seconds under it (`5m`, `1m30s`), seconds under a minute (`42s`).
    static func elapsed(since opened: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(opened).rounded(.down)
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "\(seconds)s" }
        let whole = Int64(seconds)
        let (hours, minutes, rest) = (whole / 3600, whole % 3600 / 60, whole % 60)
        if hours > 0 { return "\(hours)h" + (minutes > 0 ? "\(minutes)m" : "") }
        if minutes > 0 { return "\(minutes)m" + (rest > 0 ? "\(rest)s" : "") }
        return "\(whole)s"
    }
}
