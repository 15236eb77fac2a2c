import Foundation

/// `liveActivity.endedTokenUnregistered` as APNs applies it: from `delay` after an activity ended, its update
/// token answers 410 `Unregistered`.
///
/// "Whether APNs answers 410 for an ended activity's token, and when: **open** (two reports of 410 `ExpiredToken` /
/// `Unregistered` some time after the end). Default: 200 and ignored; configurable: 410 after a delay"
/// (live-activities.md §2). Made from the settings only when the setting is on, so the validator's check is one
/// optional test when it is off.
public struct EndedActivityTokens: Sendable, Hashable {
    /// How long after the end the token still answers 200.
    public var delay: TimeInterval
    /// The lifetimes that say when an activity ended by itself (8 hours after its start by default).
    public var lifetimes: ActivityLifetimes

    /// The rule of `settings`, or `nil` when `endedTokenUnregistered` is off.
    public init?(_ settings: LiveActivitySettings) {
        guard let delay = settings.endedTokenUnregistered else { return nil }
        self.delay = delay
        self.lifetimes = settings.lifetimes
    }
}
