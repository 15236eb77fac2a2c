import Foundation

/// A Live Activity as the control API shows it: the activity and where it is in its life at the mock's clock.
///
/// The one type both sides use: the in-process server builds it, `GET /v1/activities` writes it as JSON, and the
/// HTTP client reads it back. Reads through to the activity: `snapshot.updateToken`, `snapshot.history`.
@dynamicMemberLookup
public struct ActivitySnapshot: Sendable, Hashable {
    /// The activity as the registry holds it.
    public var activity: LiveActivity
    /// Its state at `clock`.
    public var state: ActivityState
    /// When it ends or ended (`LiveActivity.endDate`).
    public var endsAt: Date
    /// When it leaves or left the lock screen (`LiveActivity.dismissDate`).
    public var dismissesAt: Date

    /// `activity` seen at `now` under `lifetimes`.
    public init(_ activity: LiveActivity, at now: Date, lifetimes: ActivityLifetimes = .standard) {
        self.activity = activity
        state = activity.state(at: now, lifetimes: lifetimes)
        endsAt = activity.endDate(lifetimes)
        dismissesAt = activity.dismissDate(lifetimes)
    }

    /// A snapshot with every part given (the HTTP client's reading of one).
    public init(activity: LiveActivity, state: ActivityState, endsAt: Date, dismissesAt: Date) {
        self.activity = activity
        self.state = state
        self.endsAt = endsAt
        self.dismissesAt = dismissesAt
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<LiveActivity, Value>) -> Value {
        activity[keyPath: keyPath]
    }

    /// How many of its pushes had each outcome (every kind present, zero when none), those its history dropped
    /// included.
    public var outcomeCounts: [DeviceOutcome.Kind: Int] { activity.outcomeCounts }
}
