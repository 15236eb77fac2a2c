import Foundation

/// One simulated phone: its state (`PhoneState`), and what it keeps between pushes to decide the next ones
/// (phone.md §1, §4): background pushes in the budget window, the background push it holds per app, the notification
/// each `apns-collapse-id` shows, what APNs stores for it while it is offline, and when an uninstalled app's token
/// went out of use.
///
/// What it shows (its notification list, its badges) is not kept here: it is read from the journal's records of
/// its pushes (`PhoneSnapshot`), so that a push that changes nothing else costs the phone nothing to remember.
public struct Phone: Sendable {
    /// A background push the phone holds for an app (Low Power Mode, a spent budget): one per app, the newest.
    public struct HeldPush: Sendable {
        /// The push, numbered once its record is appended.
        let number: PushNumber
        /// When it arrived, on the mock's clock.
        public var at: Date
        /// The rule that held it (`background-low-power`, `background-budget`).
        public var rule: DeviceRule

        /// The sequence number of the push's record, once appended.
        public var sequence: UInt64? { number.sequence }
    }

    /// The phone's id: a name from `phones:`, or the token of a phone the scenario does not describe.
    public var id: String
    /// Whether the scenario declares it (`phones:`); an implicit phone has the defaults.
    public var declared: Bool
    /// Its state now.
    public var state: PhoneState
    /// When each background push reached it within the last budget window, oldest first (the budget and the
    /// over-rate warning count these).
    var backgroundPushes: [Date] = []
    /// When each push the budget counts launched an app, oldest first, within `backgroundBudgetWindow`.
    var backgroundLaunches: [Date] = []
    /// When each push a daily budget counted reached an app within the last 24 hours, oldest first
    /// (`Phone.DailyBudget`).
    var dailyPushes: [DailyBudget: [Date]] = [:]
    /// The background push held per app, by bundle id.
    public var held: [String: HeldPush] = [:]
    /// The push that shows each `apns-collapse-id`, by bundle id and collapse id.
    var collapsed: [CollapseKey: PushNumber] = [:]
    /// The pushes APNs stores for the phone while it is offline, by slot (`StoredPush.slot`).
    var stored: [String: StoredPush] = [:]
    /// The most slots `stored` holds, and the most apps `held` holds a push for: far above what a phone's apps use;
    /// past it the oldest is dropped, with the event `replaced` (`PhoneWalk.evictOldestStored`, `hold`).
    static let storedSlotLimit = 1_000
    /// When the first push after an app's deletion reached the phone, by bundle id: the token answers 410 from
    /// `unregisteredAfter` later on (phone.md §1 step 1). Cleared when the app is installed again.
    var uninstalledReached: [String: Date] = [:]
    /// `collapsed`'s keys, oldest first, so that the oldest is forgotten past `collapseLimit`.
    var collapseOrder: [CollapseKey] = []

    /// A phone `id` in `state`.
    public init(id: String, declared: Bool, state: PhoneState) {
        self.id = id
        self.declared = declared
        self.state = state
    }

    /// Whether a push that leaves a default phone unchanged does the same here as on a default phone: the state is
    /// the default one, and no stored or held push waits to be settled first. (A walk reads the rest of what a
    /// phone keeps, its budgets and collapse ids, only after it has said that it changes the phone; a test pins it.)
    var actsAsDefault: Bool {
        stored.isEmpty && held.isEmpty && state == Self.defaultState
    }

    /// The state of a phone nobody changed.
    private static let defaultState = PhoneState()

    /// An app's collapse id.
    struct CollapseKey: Sendable, Hashable {
        /// The app.
        var bundleID: String
        /// `apns-collapse-id`.
        var collapseID: String
    }

    /// The most collapse ids a phone remembers (the oldest is forgotten first).
    static let collapseLimit = 1_000
    /// The most background pushes a phone remembers within the window.
    static let backgroundPushLimit = 10_000

    /// Forgets the background pushes older than an hour and the launches older than `budgetWindow` before `now`.
    mutating func pruneBackground(now: Date, budgetWindow: TimeInterval) {
        Self.prune(&backgroundPushes, since: now.addingTimeInterval(-3600))
        Self.prune(&backgroundLaunches, since: now.addingTimeInterval(-budgetWindow))
    }

    /// Adds `date` to `times`, dropping the oldest past `backgroundPushLimit`.
    static func note(_ date: Date, in times: inout [Date]) {
        times.append(date)
        if times.count > backgroundPushLimit { times.removeFirst(times.count - backgroundPushLimit) }
    }

    private static func prune(_ times: inout [Date], since: Date) {
        guard let first = times.first, first <= since else { return }
        times.removeFirst(times.firstIndex { $0 > since } ?? times.count)
    }

    /// Remembers that `number` shows `key` now; answers the push it replaces, if the phone still had one.
    mutating func collapse(_ key: CollapseKey, to number: PushNumber) -> PushNumber? {
        let replaced = collapsed.updateValue(number, forKey: key)
        if replaced == nil {
            collapseOrder.append(key)
            if collapseOrder.count > Self.collapseLimit {
                collapsed[collapseOrder.removeFirst()] = nil
            }
        }
        return replaced
    }
}
