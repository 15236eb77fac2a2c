import Foundation

/// The open facts of the simulated phone, each a setting (issue 12; live-activities.md tags them **open** or
/// **dts**): the defaults are the mock's choices where Apple says nothing.
public struct LiveActivitySettings: Sendable, Hashable {
    /// Active 8 h, visible 12 h, 4 h after an end (doc).
    public var lifetimes = ActivityLifetimes.standard
    /// Whether a `start` without `input-push-token: 1` still issues an update token (open; default yes, noted).
    public var tokenWithoutInputPushToken = true
    /// Whether a `start` without `alert` is dropped (seen on devices; default yes).
    public var startNeedsAlert = true
    /// A `timestamp` more than this ahead of the clock is dropped (seen, unconfirmed; default 8 h; `nil`: off).
    public var futureTimestampLimit: TimeInterval? = 8 * 3600
    /// An `update` whose `timestamp` is more than this behind the clock is ignored (open; default off).
    public var oldTimestampLimit: TimeInterval?
    /// A decoded date more than this from the clock gets a warning (default 365 days).
    public var dateWarningThreshold = ActivityDateWarning.defaultThreshold
    /// Priority-10 updates one activity takes per hour before it throttles (dts, number open; default 60).
    public var priority10UpdatesPerHour: Int? = 60
    /// Starts one push-to-start token takes per `startWindow` before it throttles (dts: "about 10"; default 10).
    public var startsPerWindow: Int? = 10
    /// The window of `startsPerWindow` (open; default 10 minutes).
    public var startWindow: TimeInterval = 600
    /// How long after an activity ended APNs answers its update token 410 `Unregistered` (open: two reports of a
    /// 410 some time after the end; default `nil`: never, 200 and the phone ignores the push).
    public var endedTokenUnregistered: TimeInterval?

    /// The defaults above.
    public init() {}
}
