import Foundation

/// Where a Live Activity is in its life at some moment, computed from its events and the clock
/// (`LiveActivity.state(at:)`).
///
/// "Lifetimes (doc): active at most 8 h, then ended by the system and removed from the Dynamic Island; visible on
/// the lock screen up to 12 h in total. `stale-date` turns the activity stale (`isStale`) until a newer update"
/// (live-activities.md §2).
public enum ActivityState: String, Sendable, Hashable, CaseIterable {
    /// Running: updates apply.
    case active
    /// Running, but past its `stale-date` and not updated since (`isStale`): updates still apply.
    case stale
    /// Ended (by an `end` push or the 8-hour limit) and still on the lock screen: pushes are ignored.
    case ended
    /// Gone from the lock screen (its dismissal date or the 12-hour limit passed): pushes are ignored.
    case dismissed

    /// Whether pushes to the activity can still change it (`active` or `stale`).
    public var isRunning: Bool { self == .active || self == .stale }
}

/// The time limits of a Live Activity's life; the defaults are Apple's documented ones.
public struct ActivityLifetimes: Sendable, Hashable {
    /// "active at most 8 h, then ended by the system" (doc).
    public var maxActive: TimeInterval
    /// "visible on the lock screen up to 12 h in total" (doc), counted from the start.
    public var maxVisible: TimeInterval
    /// How long an ended activity without a `dismissal-date` stays: "default up to 4 h" (doc).
    public var defaultDismissal: TimeInterval

    public init(
        maxActive: TimeInterval = 8 * 3600, maxVisible: TimeInterval = 12 * 3600,
        defaultDismissal: TimeInterval = 4 * 3600
    ) {
        self.maxActive = maxActive
        self.maxVisible = maxVisible
        self.defaultDismissal = defaultDismissal
    }

    /// Apple's documented limits: 8 h active, 12 h visible, 4 h after an end.
    public static let standard = ActivityLifetimes()
}
