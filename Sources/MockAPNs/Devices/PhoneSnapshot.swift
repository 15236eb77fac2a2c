import Foundation

/// One simulated phone as `GET /v1/phones/{id}` shows it: its state, its tokens, and per app what the person would
/// see (the notification list, newest first, after collapses; the badge), the background push the phone holds and
/// what the budget has counted.
///
/// The list and the badges are read from the journal's records of the phone's pushes (a record the journal dropped
/// is gone from them too); the held pushes and the counts come from the phone.
public struct PhoneSnapshot: Sendable {
    /// One notification on the phone's list.
    public struct Notification: Sendable, Hashable {
        /// The push's record.
        public var sequence: UInt64
        /// When it arrived, on the mock's clock.
        public var at: Date
        /// `shown`, `shownQuietly` or `withheld`.
        public var outcome: DeviceOutcome.Kind
        /// The rule that decided.
        public var rule: DeviceRule?
        /// What the person reads, after the service extension: the title, subtitle and body (a localized key as
        /// `loc-key NAME`).
        public var title: String?
        /// The subtitle.
        public var subtitle: String?
        /// The body.
        public var body: String?
        /// `aps.thread-id`: the group it is listed in.
        public var threadID: String?
        /// `apns-collapse-id`.
        public var collapseID: String?
        /// The person it is from, when the service extension made it a communication notification.
        public var communicationSender: String?
    }

    /// A background push the phone holds for an app.
    public struct Held: Sendable, Hashable {
        /// The push's record; `nil` in the moment before the journal numbers it.
        public var sequence: UInt64?
        /// When it arrived.
        public var at: Date
        /// Why it is held.
        public var rule: DeviceRule
    }

    /// A push APNs stores for the phone while it is offline.
    public struct Stored: Sendable, Hashable {
        /// The push's record; `nil` in the moment before the journal numbers it.
        public var sequence: UInt64?
        /// When APNs stored it.
        public var storedAt: Date
        /// When it expires undelivered.
        public var expiresAt: Date
        /// The slot it occupies (`<token> <topic>`, or `<topic>` under `storageSlot: app`).
        public var slot: String
    }

    /// A group of the app's notifications: one `thread-id`.
    public struct ThreadGroup: Sendable, Hashable {
        /// `aps.thread-id`; `nil` for the notifications without one.
        public var threadID: String?
        /// How many of the app's notifications are in it.
        public var count: Int
    }

    /// One app on the phone.
    public struct App: Sendable {
        /// The app's bundle id.
        public var bundleID: String
        /// Its state on the phone and the person's settings.
        public var onPhone: AppOnPhone
        /// The badge on its icon, as the last push that set it left it; `nil` when no push set one.
        public var badge: Int?
        /// How many notifications it has on the list (`notifications` holds the newest
        /// `simulation.notificationCenterLimit` of them).
        public var notificationCount: Int
        /// Its notifications, newest first.
        public var notifications: [Notification]
        /// The background push the phone holds for it.
        public var held: Held?
        /// What APNs stores for it while the phone is offline, oldest first.
        public var stored: [Stored] = []
        /// Its notifications grouped by `thread-id`, in the order of each group's newest notification.
        public var threads: [ThreadGroup] = []
        /// The complication pushes `simulation.complicationPerDay` counted within the last 24 hours.
        public var complicationBudgetUsed = 0
        /// The widget and control pushes `simulation.widgetPushesPerDay` counted within the last 24 hours (none
        /// while it is `unlimited`).
        public var widgetBudgetUsed = 0
    }

    /// What the phone counted of background pushes.
    public struct Background: Sendable, Hashable {
        /// Background pushes that reached it within the last hour (`background-over-rate` warns past 3).
        public var pushesLastHour: Int
        /// Launches the budget counted within its window.
        public var launchesInWindow: Int
        /// `simulation.backgroundBudget`; `nil`: unlimited.
        public var budget: Int?
        /// `simulation.backgroundBudgetWindow`, in seconds.
        public var window: TimeInterval
    }

    /// The phone's id: a name from `phones:`, or a token.
    public var id: String
    /// Whether the scenario declares it.
    public var declared: Bool
    /// The device tokens on it (lower-case).
    public var tokens: [String]
    /// Its state (the apps' state is in `apps`).
    public var state: PhoneState
    /// The apps it has state or notifications for, by bundle id.
    public var apps: [App]
    /// Its background counts.
    public var background: Background
}

extension PhoneSnapshot {
    /// The snapshot of `phone` (or of a default phone `id`, when the registry keeps none) with `tokens`, from
    /// `records`, the journal's records of pushes to those tokens with the outcome each reached the phone with,
    /// oldest first (a push delivered from storage comes with its `delivered` event's outcome, at the event), at
    /// `now`.
    init(
        phone: Phone?, id: String, declared: Bool, tokens: [String],
        records: [(record: JournalRecord, device: DeviceOutcome, at: Date)], setup: PhoneSetup, now: Date
    ) {
        let phone = phone ?? Phone(id: id, declared: declared, state: PhoneState())
        self.id = id
        self.declared = declared
        self.tokens = tokens
        self.state = phone.state
        var lists: [String: [Notification]] = [:]
        // Past the limit a notification is counted, not listed: the newest stay.
        var counts: [String: Int] = [:]
        let limit = setup.settings.notificationCenterLimit
        var collapsed: [String: Set<String>] = [:]
        var badges: [String: Int] = [:]
        for (record, device, at) in records.reversed() {
            guard let topic = record.topic else { continue }
            var listed = [.shown, .shownQuietly, .withheld].contains(device.kind)
            if listed, let collapseID = record.request.fields.collapseID {
                listed = collapsed[topic, default: []].insert(collapseID).inserted
            }
            if listed { counts[topic, default: 0] += 1 }
            let shows = listed && counts[topic, default: 0] <= limit
            let mayBadge = badges[topic] == nil && Self.mentionsBadge(record.payload)
            // Past the listed notifications and the badge, a push is only counted: its payload is not parsed.
            guard shows || mayBadge else { continue }
            let app = setup.app(topic)
            let facts = PushFacts(record.payloadJSON)
            if mayBadge, let badge = Self.badge(record, device, facts, app) { badges[topic] = badge }
            guard shows else { continue }
            var notification = Notification(
                sequence: record.sequence, at: at, outcome: device.kind, rule: device.rule,
                title: facts.title, subtitle: facts.subtitle, body: facts.body, threadID: facts.threadID,
                collapseID: record.request.fields.collapseID, communicationSender: device.communicationSender)
            Self.applyExtension(record, device, app, to: &notification)
            lists[topic, default: []].append(notification)
        }
        var bundles = Set(phone.state.apps.keys).union(lists.keys).union(phone.held.keys).union(badges.keys)
            .union(phone.stored.values.map(\.bundleID)).union(phone.dailyPushes.keys.map(\.bundleID))
        bundles.remove("")
        let day = now.addingTimeInterval(-SimulationSettings.dailyBudgetWindow)
        func usedToday(_ kind: Phone.DailyBudget.Kind, _ bundle: String) -> Int {
            phone.dailyPushes[Phone.DailyBudget(kind: kind, bundleID: bundle)]?.filter { $0 > day }.count ?? 0
        }
        apps = bundles.sorted().map { bundle in
            let list = lists[bundle] ?? []
            // When the person last opened it: the scenario's load time until they open it.
            var onPhone = phone.state.app(bundle)
            onPhone.lastOpened = onPhone.lastOpened(loadedAt: setup.loadedAt)
            var app = App(
                bundleID: bundle, onPhone: onPhone, badge: badges[bundle],
                notificationCount: counts[bundle] ?? 0, notifications: list,
                held: phone.held[bundle].map { Held(sequence: $0.sequence, at: $0.at, rule: $0.rule) })
            app.stored = phone.stored(for: bundle).map {
                Stored(sequence: $0.number.sequence, storedAt: $0.storedAt, expiresAt: $0.expiresAt, slot: $0.slot)
            }
            app.threads = Self.threads(of: list)
            app.complicationBudgetUsed = usedToday(.complication, bundle)
            app.widgetBudgetUsed = usedToday(.widgets, bundle)
            return app
        }
        let settings = setup.settings
        let hour = now.addingTimeInterval(-3600)
        let window = now.addingTimeInterval(-settings.backgroundBudgetWindow)
        background = Background(
            pushesLastHour: phone.backgroundPushes.filter { $0 > hour }.count,
            launchesInWindow: phone.backgroundLaunches.filter { $0 > window }.count, budget: settings.backgroundBudget,
            window: settings.backgroundBudgetWindow)
    }

    /// The groups of `list` (newest first) by thread id, in the order of each group's newest notification.
    private static func threads(of list: [Notification]) -> [ThreadGroup] {
        var threads: [ThreadGroup] = []
        var index: [String?: Int] = [:]
        for notification in list {
            if let at = index[notification.threadID] {
                threads[at].count += 1
            } else {
                index[notification.threadID] = threads.count
                threads.append(ThreadGroup(threadID: notification.threadID, count: 1))
            }
        }
        return threads
    }

    /// Whether `payload` has the bytes `"badge"` at all: only then can it set a badge (a cheap test before parsing).
    private static func mentionsBadge(_ payload: [UInt8]) -> Bool {
        let word = Array(#""badge""#.utf8)
        guard payload.count >= word.count else { return false }
        for start in 0...(payload.count - word.count) where payload[start] == word[0] {
            if payload[start..<start + word.count].elementsEqual(word) { return true }
        }
        return false
    }

    /// The badge a push left: `aps.badge` of a notification that showed or applied it, unless the person turned
    /// badges off or the foreground delegate left the badge out. Only alert and background pushes are notifications:
    /// a widget reload is `applied` too, and sets no badge.
    private static func badge(
        _ record: JournalRecord, _ device: DeviceOutcome, _ facts: PushFacts, _ app: AppBehaviour
    ) -> Int? {
        guard let badge = facts.badge, [.shown, .shownQuietly, .withheld, .applied].contains(device.kind),
            record.pushType.map({ $0 == "alert" || $0 == "background" }) ?? true,
            !device.fired(.badgeOff)
        else { return nil }
        if device.fired(.foregroundPresented), case .options(let options) = app.willPresent,
            !options.contains(.badge)
        {
            return nil
        }
        return badge
    }

    /// The content the service extension left, when it modified it (the case its app declares for the push).
    private static func applyExtension(
        _ record: JournalRecord, _ device: DeviceOutcome, _ app: AppBehaviour, to notification: inout Notification
    ) {
        guard device.fired(.nseModified) || device.fired(.nseExpiredFallback),
            case .present(let declared) = app.serviceExtension
        else { return }
        var payload: JSONValue?? = nil
        let change = declared.handling.action(for: record.request, payload: &payload).set
        if let title = change.title { notification.title = title }
        if let subtitle = change.subtitle { notification.subtitle = subtitle }
        if let body = change.body { notification.body = body }
    }
}
