import Foundation

/// One Live Activity on the simulated phone: what it shows, how it is reached, and every push it got.
///
/// A value: `ActivityRegistry` keeps the current one per id. Its state is computed from its events and the clock
/// (`state(at:)`), never by timers, so moving the mock's clock moves every activity at once (structure.md §3.2b).
public struct LiveActivity: Sendable, Hashable {
    /// The activity's id, a UUID as ActivityKit's `Activity.id` is.
    public var id: String
    /// The Swift attributes type it was started as (`mpushTaxiAttributes`).
    public var attributesType: String
    /// The static attributes, as the start push sent them.
    public var attributes: JSONValue
    /// The content state last applied.
    public var contentState: JSONValue
    /// The update token the phone issued for it (160 hex digits).
    public var updateToken: String
    /// The push-to-start token whose push started it (or that a local start named).
    public var pushToStartToken: String?
    /// Whether a `start` push started it, so it counts against its push-to-start token's budget (a local start
    /// and a scenario's declared activity do not).
    public var startedByPush = false
    /// When it started, by the mock's clock.
    public var startedAt: Date
    /// The `timestamp` of the last applied push (seconds since 1970, as `aps.timestamp` is).
    public var timestamp: Double
    /// When the last push was applied, by the mock's clock.
    public var updatedAt: Date
    /// The last applied `stale-date`, if any.
    public var staleDate: Date?
    /// The `dismissal-date` of the `end` push, if any.
    public var dismissalDate: Date?
    /// The last applied `relevance-score`, if any.
    public var relevanceScore: Double?
    /// When an `end` push ended it, by the mock's clock; `nil` while it runs (or ended only by the 8-hour limit).
    public var endedAt: Date?
    /// When the person swiped it away (`POST /v1/activities/{id}/dismiss`), by the mock's clock: it is dismissed
    /// from then on, whatever its dates say.
    public var dismissedAt: Date?
    /// The newest pushes that reached it, with what the phone did: at most about `historyLimit` (fewer while the
    /// registry holds many activities: `ActivityRegistry.historyLimit(activities:)`), the oldest dropped first
    /// (`historyDropped` counts them), so an activity updated all day, or a channel's many subscribers, stay bounded.
    public var history: [ActivityPush]
    /// How many of its oldest pushes `history` no longer lists.
    public var historyDropped = 0
    /// When its applied priority-10 updates of the last hour came, oldest first: what
    /// `liveActivity.priority10UpdatesPerHour` counts, kept apart from `history` so that a shorter history does not
    /// change the count.
    var priority10Applied: [Date] = []
    /// How many of its pushes had each outcome, the dropped ones included (every `activityKinds` kind present).
    public var outcomeCounts: [DeviceOutcome.Kind: Int]
    /// Every upload of its update tokens to the provider's server (`tokenUpload:`), oldest first.
    public var tokenUploads: [TokenUpload] = []
    /// The broadcast channel it is subscribed to (`input-push-channel`, a local start's `channel`, a declared
    /// device's `channel`): every broadcast to the channel reaches it (live-activities.md §3); `nil`: none.
    public var channel: String?

    public init(
        id: String, attributesType: String, attributes: JSONValue, contentState: JSONValue, updateToken: String,
        pushToStartToken: String?, startedAt: Date, timestamp: Double, staleDate: Date? = nil,
        relevanceScore: Double? = nil, history: [ActivityPush] = []
    ) {
        self.id = id
        self.attributesType = attributesType
        self.attributes = attributes
        self.contentState = contentState
        self.updateToken = updateToken
        self.pushToStartToken = pushToStartToken
        self.startedAt = startedAt
        self.timestamp = timestamp
        self.updatedAt = startedAt
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
        self.history = history
        var counts = Dictionary(uniqueKeysWithValues: DeviceOutcome.Kind.activityKinds.map { ($0, 0) })
        for push in history { counts[push.outcome, default: 0] += 1 }
        self.outcomeCounts = counts
    }

    /// The most pushes `history` keeps: past one and a half times this, the oldest half is dropped at once, so
    /// each push costs the same however long the activity lives.
    public static let historyLimit = 1000
    /// The most applied priority-10 update times kept: the largest `priority10UpdatesPerHour` a scenario may set.
    static let priority10Kept = 1_000_000

    /// Adds `push` to the history and the counts, the history kept to about `limit` pushes; answers its position
    /// counted from the first push ever (what `ActivityHistoryEntry` holds, valid after older entries are dropped).
    mutating func record(_ push: ActivityPush, limit: Int = historyLimit) -> Int {
        history.append(push)
        outcomeCounts[push.outcome, default: 0] += 1
        if push.priority == 10, push.outcome == .applied {
            let hourAgo = push.at.addingTimeInterval(-3600)
            if let first = priority10Applied.first, first <= hourAgo { priority10Applied.removeAll { $0 <= hourAgo } }
            if priority10Applied.count >= Self.priority10Kept { priority10Applied.removeFirst() }
            priority10Applied.append(push.at)
        }
        if history.count > limit + limit / 2 {
            let excess = history.count - limit
            history.removeFirst(excess)
            historyDropped += excess
        }
        return historyDropped + history.count - 1
    }

    /// When it ends or ended: its `end` push or the person's swipe, else the end of its active life (`maxActive`
    /// after the start).
    public func endDate(_ lifetimes: ActivityLifetimes = .standard) -> Date {
        let automatic = startedAt.addingTimeInterval(lifetimes.maxActive)
        return [endedAt, dismissedAt].compactMap { $0 }.reduce(automatic, min)
    }

    /// When it leaves the lock screen: when the person swiped it away, else its `dismissal-date` (a past one at
    /// once), else `defaultDismissal` after the end; never later than `maxVisible` after the start.
    public func dismissDate(_ lifetimes: ActivityLifetimes = .standard) -> Date {
        let end = endDate(lifetimes)
        let requested = dismissalDate.map { max($0, end) } ?? end.addingTimeInterval(lifetimes.defaultDismissal)
        let limit = min(requested, startedAt.addingTimeInterval(lifetimes.maxVisible))
        return dismissedAt.map { min($0, limit) } ?? limit
    }

    /// Its state at `now`: dismissed from the dismissal date on, ended from the end on, stale from a `stale-date`
    /// set after the last update on, else active. Each limit is reached at its exact instant (8 h is ended).
    public func state(at now: Date, lifetimes: ActivityLifetimes = .standard) -> ActivityState {
        if now >= dismissDate(lifetimes) { return .dismissed }
        if now >= endDate(lifetimes) { return .ended }
        if let staleDate, now >= staleDate { return .stale }
        return .active
    }
}

/// One push that reached an activity, and what the phone did with it.
public struct ActivityPush: Sendable, Hashable {
    /// When it arrived, by the mock's clock.
    public var at: Date
    /// The journal record's sequence number, when there is a record.
    public var sequence: UInt64?
    /// `aps.event`: `start`, `update` or `end`.
    public var event: String
    /// What the phone did.
    public var outcome: DeviceOutcome.Kind
    /// Why, in plain words, when it did not simply apply.
    public var reason: String?
    /// `apns-priority`, for the update budget (only applied priority-10 pushes count).
    public var priority: Int?
    /// The channel it came through, when it was a broadcast (`sequence` is then the broadcast's record).
    public var channel: String?

    public init(
        at: Date, sequence: UInt64?, event: String, outcome: DeviceOutcome.Kind, reason: String? = nil,
        priority: Int? = nil, channel: String? = nil
    ) {
        self.at = at
        self.channel = channel
        self.priority = priority
        self.sequence = sequence
        self.event = event
        self.outcome = outcome
        self.reason = reason
    }
}
