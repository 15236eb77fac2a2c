import Foundation
import NIOConcurrencyHelpers

/// The simulated phone's Live Activities and the update tokens it issued. Locked, shared by every connection
/// through the engine, like `ScriptedRules`.
///
/// Kept out of `World` on purpose (structure.md §3.2b): every world update bumps the generation and makes every
/// connection rebuild its validator, so minting a token per `start` through the world would throw those caches
/// away on every start.
///
/// Update tokens are looked up as `DeviceToken`s, lower-cased once where they came in (the validator, for a push;
/// the control API, for a route), so that a lookup neither lower-cases nor allocates. The methods that take a
/// `String` are for Swift callers holding a token as text: they take any case of hex digits, and a text that is
/// no token is no update token.
public final class ActivityRegistry: Sendable {
    /// Kept together under one lock; the extensions that change activities (`+Changes`) take it too.
    struct Store {
        var activities: [String: LiveActivity] = [:]
        /// Update token → activity id.
        var tokens: [DeviceToken: String] = [:]
        /// Activity ids in start order (ties in relevance go to the first started).
        var order: [String] = []
        /// Channel id → the ids of the activities subscribed to it, in start order: what a broadcast fans out to
        /// without looking at every activity.
        var subscribers: [String: [String]] = [:]

        /// Removes the activity `token` updates, with every token that points at it.
        mutating func removeActivity(updatedBy token: DeviceToken) {
            guard let id = tokens[token] else { return }
            if let channel = activities[id]?.channel { subscribers[channel]?.removeAll { $0 == id } }
            activities[id] = nil
            tokens = tokens.filter { $0.value != id }
            order.removeAll { $0 == id }
        }
    }

    let store = NIOLockedValueBox(Store())
    /// Who hears of each change (streams, waiters), and the number of the last change; apart from `store` so
    /// that a change with no one listening takes no second lock's work beyond a check.
    let watchers = NIOLockedValueBox(ActivityWatchers())

    /// An empty registry: no activity, no minted token.
    public init() {}

    /// The most pushes each activity's history keeps while the registry holds `count` activities:
    /// `LiveActivity.historyLimit` (1,000) up to 1,000 activities, then fewer, down to `historyFloor`, so that the
    /// histories together stay near `historyBudget` pushes however many subscribers each broadcast reaches.
    static func historyLimit(activities count: Int) -> Int {
        max(historyFloor, min(LiveActivity.historyLimit, historyBudget / max(count, 1)))
    }

    /// The pushes all histories keep together, about (`historyLimit(activities:)`).
    static let historyBudget = 1_000_000
    /// The fewest pushes an activity's history keeps, however many activities there are.
    static let historyFloor = 20

    /// The number of hex digits of an update token the phone issues: 160 (live-activities.md §2, seen).
    public static let tokenLength = 160

    /// Starts `activity` under a new random update token and a new id; returns it as stored.
    ///
    /// The `id` and `updateToken` of `activity` are replaced: the token is 160 lowercase hex digits, unique among
    /// the tokens this registry issued.
    @discardableResult
    public func start(_ activity: LiveActivity) -> LiveActivity {
        switch start(activity, budget: nil, window: 0) {
        case .started(let started): started
        case .overBudget: activity  // no budget, never over it
        }
    }

    /// Starts `activity` under `token`, a token the phone had already issued (a scenario's `live-activity` device),
    /// with a new id; returns it as stored. A token already in the registry moves to the new activity.
    @discardableResult
    public func start(_ activity: LiveActivity, token: DeviceToken) -> LiveActivity {
        switch start(activity, token: token, budget: nil, window: 0) {
        case .started(let started): started
        case .overBudget: activity  // no budget, never over it
        }
    }

    /// What `start(_:token:budget:window:)` did.
    enum StartResult {
        case started(LiveActivity)
        /// `count` activities started from the same push-to-start token within the window: none started.
        case overBudget(count: Int)
    }

    /// Starts `activity` as `start(_:)` does (under `token` when given), unless `budget` activities already started
    /// from its push-to-start token within `window` before its start; checked and started under one lock, so no
    /// start slips past.
    func start(_ activity: LiveActivity, token given: DeviceToken? = nil, budget: Int?, window: TimeInterval)
        -> StartResult
    {
        let result = store.withLockedValue { store -> StartResult in
            if let budget {
                let since = activity.startedAt.addingTimeInterval(-window)
                let recent = store.activities.values.count(where: {
                    $0.startedByPush && $0.pushToStartToken == activity.pushToStartToken && $0.startedAt > since
                })
                if recent >= budget { return .overBudget(count: recent) }
            }
            var started = activity
            started.id = UUID().uuidString
            var token = given ?? Self.randomToken()
            while given == nil, store.tokens[token] != nil { token = Self.randomToken() }
            // A declared device given again (POST /v1/devices) replaces the activity behind its token.
            if given != nil { store.removeActivity(updatedBy: token) }
            started.updateToken = token.hex
            store.activities[started.id] = started
            store.tokens[token] = started.id
            store.order.append(started.id)
            if let channel = started.channel { store.subscribers[channel, default: []].append(started.id) }
            return .started(started)
        }
        if case .started(let started) = result { notify(.started, started) }
        return result
    }

    /// Whether `token` is an update token this registry issued.
    public func isUpdateToken(_ token: DeviceToken) -> Bool {
        store.withLockedValue { $0.tokens[token] != nil }
    }

    /// The activity `token` updates, if this registry issued it.
    public func activity(forToken token: DeviceToken) -> LiveActivity? {
        store.withLockedValue { store in store.tokens[token].flatMap { store.activities[$0] } }
    }

    /// The activity with `id`.
    public func activity(id: String) -> LiveActivity? {
        store.withLockedValue { $0.activities[id] }
    }

    /// Every activity, in start order.
    public var activities: [LiveActivity] {
        store.withLockedValue { store in store.order.compactMap { store.activities[$0] } }
    }

    /// Runs `body` on the activity `token` updates, under the lock, and stores what it leaves; `nil` (and `body`
    /// not run) when the token is not one this registry issued.
    public func withActivity<Result>(
        forToken token: DeviceToken, _ body: (inout LiveActivity) -> Result
    ) -> Result? {
        withActivity(forToken: token) { activity, _ in body(&activity) }
    }

    /// `withActivity(forToken:_:)`, `body` also given the history limit for the activities the registry holds.
    func withActivity<Result>(
        forToken token: DeviceToken, _ body: (inout LiveActivity, _ historyLimit: Int) -> Result
    ) -> Result? {
        store.withLockedValue { store in
            guard let id = store.tokens[token], store.activities[id] != nil else { return nil }
            // In place: a copy taken out of the dictionary would copy the history on every push.
            return body(&store.activities[id]!, Self.historyLimit(activities: store.activities.count))
        }
    }

    /// Runs `body` on every activity by id, under the lock, and stores what it leaves.
    func withActivities<Result>(_ body: (inout [String: LiveActivity]) -> Result) -> Result {
        store.withLockedValue { body(&$0.activities) }
    }

    /// Runs `body` on the activity with `id`, under the lock, and stores what it leaves; `nil` (and `body` not run)
    /// when there is none (a reset forgot it).
    public func withActivity<Result>(id: String, _ body: (inout LiveActivity) -> Result) -> Result? {
        store.withLockedValue { store in
            guard store.activities[id] != nil else { return nil }
            return body(&store.activities[id]!)  // in place, as above
        }
    }

    /// Forgets the activity `token` updates, and the token (`DELETE /v1/devices/{token}` of a declared
    /// `live-activity` device); nothing when `token` is not an update token.
    public func removeActivity(updatedBy token: DeviceToken) {
        store.withLockedValue { $0.removeActivity(updatedBy: token) }
    }

    /// Forgets every activity and token (`/v1/reset`, a scenario load).
    public func removeAll() {
        store.withLockedValue { $0 = Store() }
    }

    /// 160 random lowercase hex digits.
    static func randomToken() -> DeviceToken {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(tokenLength)
        for _ in 0..<(tokenLength / 16) {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                bytes.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return DeviceToken(validated: String(decoding: bytes, as: UTF8.self))
    }
}
