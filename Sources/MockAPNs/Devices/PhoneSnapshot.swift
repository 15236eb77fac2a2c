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

    /// One app on the phone.
    public struct App: Sendable {
        /// The app's bundle id.
        public var bundleID: String
        /// Its state on the phone and the person's settings.
        public var onPhone: AppOnPhone
        /// The badge on its icon, as the last push that set it left it; `nil` when no push set one.
        public var badge: Int?
        /// How many notifications it has on the list (the list itself keeps the newest `notificationLimit`).
        public var notificationCount: Int
        /// Its notifications, newest first.
        public var notifications: [Notification]
        /// The background push the phone holds for it.
        public var held: Held?
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

    /// The most notifications listed per app (the newest).
    public static let notificationLimit = 1_000
}

extension PhoneSnapshot {
    /// The snapshot of `phone` (or of a default phone `id`, when the registry keeps none) with `tokens`, from
    /// `records`, the journal's records of pushes to those tokens, oldest first, at `now`.
    init(
        phone: Phone?, id: String, declared: Bool, tokens: [String], records: [JournalRecord], setup: PhoneSetup,
        now: Date
    ) {
        let phone = phone ?? Phone(id: id, declared: declared, state: PhoneState())
        self.id = id
        self.declared = declared
        self.tokens = tokens
        self.state = phone.state
        var lists: [String: [Notification]] = [:]
        var collapsed: [String: Set<String>] = [:]
        var badges: [String: Int] = [:]
        for record in records.reversed() {
            guard let device = record.device, let topic = record.topic else { continue }
            let app = setup.app(topic)
            let facts = PushFacts(record.payloadJSON)
            if badges[topic] == nil, let badge = Self.badge(record, device, facts, app) { badges[topic] = badge }
            guard [.shown, .shownQuietly, .withheld].contains(device.kind) else { continue }
            if let collapseID = record.request.fields.collapseID {
                guard collapsed[topic, default: []].insert(collapseID).inserted else { continue }
            }
            var notification = Notification(
                sequence: record.sequence, at: record.receivedAt, outcome: device.kind, rule: device.rule,
                title: facts.title, subtitle: facts.subtitle, body: facts.body, threadID: facts.threadID,
                collapseID: record.request.fields.collapseID)
            Self.applyExtension(record, device, app, to: &notification)
            lists[topic, default: []].append(notification)
        }
        var bundles = Set(phone.state.apps.keys).union(lists.keys).union(phone.held.keys).union(badges.keys)
        bundles.remove("")
        apps = bundles.sorted().map { bundle in
            let list = lists[bundle] ?? []
            return App(
                bundleID: bundle, onPhone: phone.state.app(bundle), badge: badges[bundle],
                notificationCount: list.count, notifications: Array(list.prefix(Self.notificationLimit)),
                held: phone.held[bundle].map { Held(sequence: $0.sequence, at: $0.at, rule: $0.rule) })
        }
        let settings = setup.settings
        let hour = now.addingTimeInterval(-3600)
        let window = now.addingTimeInterval(-settings.backgroundBudgetWindow)
        background = Background(
            pushesLastHour: phone.backgroundPushes.filter { $0 > hour }.count,
            launchesInWindow: phone.backgroundLaunches.filter { $0 > window }.count, budget: settings.backgroundBudget,
            window: settings.backgroundBudgetWindow)
    }

    /// The badge a push left: `aps.badge` of a push that showed or applied it, unless the person turned badges off
    /// or the foreground delegate left the badge out.
    private static func badge(
        _ record: JournalRecord, _ device: DeviceOutcome, _ facts: PushFacts, _ app: AppBehaviour
    ) -> Int? {
        guard let badge = facts.badge, [.shown, .shownQuietly, .withheld, .applied].contains(device.kind),
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
