import Foundation

extension PhoneSnapshot: JSONMapped {
    /// `{"id", "declared", "tokens", "state", "apps", "background"}`, in this order; `state` holds the phone's own
    /// fields and `apps` each app's (its `onPhone` fields flattened beside its list). Read back `nil` without an
    /// `id`; the apps' state is read into `state.apps` too.
    public static let jsonMapping = JSONMapping<PhoneSnapshot, PhoneSnapshot>(
        PhoneSnapshot(
            id: "", declared: false, tokens: [], state: PhoneState(), apps: [],
            background: Background(pushesLastHour: 0, launchesInWindow: 0, budget: nil, window: 3600)),
        [
            .member("id", \.id, .string, required: true),
            .member("declared", \.declared, .bool),
            .member("tokens", \.tokens, .compactArray(.string)),
            .member("state", \.state, .object),
            .custom("apps", write: { .array($0.apps.map(\.json)) }) { snapshot, json in
                snapshot.apps = (json?.arrayValue ?? []).compactMap(App.init(json:))
                for app in snapshot.apps { snapshot.state.apps[app.bundleID] = app.onPhone }
                return true
            },
            .member("background", \.background, .object),
        ])
}

extension PhoneState: JSONMapped {
    /// The phone's own fields, every one (`focus` `null` when off): `online`, `locked`, `lowPowerMode`, `focus`,
    /// `scheduledSummary`, `callActive`. The apps are not members (a snapshot lists them apart).
    public static let jsonMapping = JSONMapping<PhoneState, PhoneState>(
        PhoneState(),
        [
            .member("online", \.online, .bool),
            .member("locked", \.locked, .bool),
            .member("lowPowerMode", \.lowPowerMode, .bool),
            .member("focus", \.focus, .optional(.object)),
            .member("scheduledSummary", \.scheduledSummary, .bool),
            .member("callActive", \.callActive, .bool),
        ])
}

extension PhoneFocus: JSONMapped {
    /// `{"name", "allowedApps", "timeSensitive", "allowedPeople", "filter"}`, every member written.
    public static let jsonMapping = JSONMapping<PhoneFocus, PhoneFocus>(
        PhoneFocus(name: ""),
        [
            .member("name", \.name, .string, required: true),
            .member("allowedApps", \.allowedApps, .compactArray(.string)),
            .member("timeSensitive", \.timeSensitive, .bool),
            .member("allowedPeople", \.allowedPeople, .compactArray(.string)),
            .member("filter", \.filter, .optional(.string)),
        ])
}

extension NotificationSettings: JSONMapped {
    /// Every switch by name, then `showPreviews`.
    public static let jsonMapping = JSONMapping<NotificationSettings, NotificationSettings>(
        NotificationSettings(),
        [
            .member("alerts", \.alerts, .bool),
            .member("sounds", \.sounds, .bool),
            .member("badges", \.badges, .bool),
            .member("lockScreen", \.lockScreen, .bool),
            .member("notificationCenter", \.notificationCenter, .bool),
            .member("criticalAlerts", \.criticalAlerts, .bool),
            .member("timeSensitive", \.timeSensitive, .bool),
            .member("inSummary", \.inSummary, .bool),
            .member("showPreviews", \.showPreviews, .rawValue),
        ])
}

extension PhoneSnapshot.App: JSONMapped {
    /// `{"bundleID", "installed", "state", "authorization", "settings", "backgroundAppRefresh", "debugger",
    /// "voipFailures", "locationAuthorization", "pttChannel", "complicationOnFace", "lastOpened", "badge", "held",
    /// "stored", "complicationBudgetUsed", "widgetBudgetUsed", "threads", "notificationCount", "notifications"}`.
    public static let jsonMapping = JSONMapping<PhoneSnapshot.App, PhoneSnapshot.App>(
        PhoneSnapshot.App(
            bundleID: "", onPhone: AppOnPhone(), badge: nil, notificationCount: 0, notifications: [], held: nil),
        [
            .member("bundleID", \.bundleID, .string, required: true),
            .member("installed", \.onPhone.installed, .bool),
            .member("state", \.onPhone.state, .rawValue),
            .member("authorization", \.onPhone.authorization, .rawValue),
            .member("settings", \.onPhone.settings, .object),
            .member("backgroundAppRefresh", \.onPhone.backgroundAppRefresh, .bool),
            .member("debugger", \.onPhone.debugger, .bool),
            .member("voipFailures", \.onPhone.voipFailures, .integer),
            .member("locationAuthorization", \.onPhone.locationAuthorization, .rawValue),
            .member("pttChannel", \.onPhone.pttChannel, .rawValue),
            .member("complicationOnFace", \.onPhone.complicationOnFace, .bool),
            .member("lastOpened", \.onPhone.lastOpened, .optional(.timestamp)),
            .member("badge", \.badge, .optional(.integer)),
            .member("held", \.held, .optional(.object)),
            .member("stored", \.stored, .compactArray(.object)),
            .member("complicationBudgetUsed", \.complicationBudgetUsed, .integer),
            .member("widgetBudgetUsed", \.widgetBudgetUsed, .integer),
            .member("threads", \.threads, .compactArray(.object)),
            .member("notificationCount", \.notificationCount, .integer),
            .member("notifications", \.notifications, .compactArray(.object)),
        ])
}

extension PhoneSnapshot.Notification: JSONMapped {
    /// `{"sequence", "at", "outcome", "rule", "title", "subtitle", "body", "threadID", "collapseID",
    /// "communication"}`: `communication` is `{"sender": …}` for a communication notification, else `null`.
    public static let jsonMapping = JSONMapping<PhoneSnapshot.Notification, PhoneSnapshot.Notification>(
        PhoneSnapshot.Notification(sequence: 0, at: .distantPast, outcome: .shown),
        [
            .member("sequence", \.sequence, .integer, required: true),
            .member("at", \.at, .timestamp),
            .member("outcome", \.outcome, .rawValue, required: true),
            .member("rule", \.rule, .optional(.deviceRule)),
            .member("title", \.title, .optional(.string)),
            .member("subtitle", \.subtitle, .optional(.string)),
            .member("body", \.body, .optional(.string)),
            .member("threadID", \.threadID, .optional(.string)),
            .member("collapseID", \.collapseID, .optional(.string)),
            .member("communication", \.communicationSender, .optional(.communicationSender)),
        ])
}

extension PhoneSnapshot.Held: JSONMapped {
    /// `{"sequence", "at", "rule"}`.
    public static let jsonMapping = JSONMapping<PhoneSnapshot.Held, PhoneSnapshot.Held>(
        PhoneSnapshot.Held(sequence: nil, at: .distantPast, rule: .backgroundBudget),
        [
            .member("sequence", \.sequence, .optional(.integer)),
            .member("at", \.at, .timestamp),
            .member("rule", \.rule, .deviceRule, required: true),
        ])
}

extension PhoneSnapshot.Stored: JSONMapped {
    /// `{"sequence", "storedAt", "expiresAt", "slot"}`.
    public static let jsonMapping = JSONMapping<PhoneSnapshot.Stored, PhoneSnapshot.Stored>(
        PhoneSnapshot.Stored(sequence: nil, storedAt: .distantPast, expiresAt: .distantPast, slot: ""),
        [
            .member("sequence", \.sequence, .optional(.integer)),
            .member("storedAt", \.storedAt, .timestamp),
            .member("expiresAt", \.expiresAt, .timestamp),
            .member("slot", \.slot, .string),
        ])
}

extension PhoneSnapshot.ThreadGroup: JSONMapped {
    /// `{"threadID", "count"}`: `threadID` `null` for the notifications without one.
    public static let jsonMapping = JSONMapping<PhoneSnapshot.ThreadGroup, PhoneSnapshot.ThreadGroup>(
        PhoneSnapshot.ThreadGroup(threadID: nil, count: 0),
        [
            .member("threadID", \.threadID, .optional(.string)),
            .member("count", \.count, .integer),
        ])
}

extension PhoneSnapshot.Background: JSONMapped {
    /// `{"pushesLastHour", "launchesInWindow", "budget", "window"}`: `budget` `null` for unlimited, `window` as a
    /// duration (`1h`).
    public static let jsonMapping = JSONMapping<PhoneSnapshot.Background, PhoneSnapshot.Background>(
        PhoneSnapshot.Background(pushesLastHour: 0, launchesInWindow: 0, budget: nil, window: 3600),
        [
            .member("pushesLastHour", \.pushesLastHour, .integer),
            .member("launchesInWindow", \.launchesInWindow, .integer),
            .member("budget", \.budget, .optional(.integer)),
            .custom("window", write: { .string(ScenarioLoader.Reader.durationText($0.window)) }) { draft, json in
                if let text = json?.stringValue,
                    case .success(let duration) = DurationText.parse(text, maximum: .seconds(86_400))
                {
                    draft.window = DurationText.seconds(duration)
                }
                return true
            },
        ])
}

extension PhoneSnapshot.Notification {
    /// A notification of `outcome`, the rest unset.
    init(sequence: UInt64, at: Date, outcome: DeviceOutcome.Kind) {
        self.init(
            sequence: sequence, at: at, outcome: outcome, rule: nil, title: nil, subtitle: nil, body: nil,
            threadID: nil, collapseID: nil)
    }
}

extension AppOnPhone: JSONMapped {
    /// `{"installed", "state", "authorization", "settings", "backgroundAppRefresh", "debugger", "voipFailures",
    /// "locationAuthorization", "pttChannel", "complicationOnFace", "lastOpened"}`: `lastOpened` `null` for the
    /// scenario's load time.
    public static let jsonMapping = JSONMapping<AppOnPhone, AppOnPhone>(
        AppOnPhone(),
        [
            .member("installed", \.installed, .bool),
            .member("state", \.state, .rawValue),
            .member("authorization", \.authorization, .rawValue),
            .member("settings", \.settings, .object),
            .member("backgroundAppRefresh", \.backgroundAppRefresh, .bool),
            .member("debugger", \.debugger, .bool),
            .member("voipFailures", \.voipFailures, .integer),
            .member("locationAuthorization", \.locationAuthorization, .rawValue),
            .member("pttChannel", \.pttChannel, .rawValue),
            .member("complicationOnFace", \.complicationOnFace, .bool),
            .member("lastOpened", \.lastOpened, .optional(.timestamp)),
        ])
}
