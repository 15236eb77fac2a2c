import Foundation

/// The most recent broadcast a policy-1 channel keeps for activities that subscribe (or come back) later: up to
/// 8 hours, and not past its `apns-expiration` (shared/live-activities.md §3; doc).
public struct StoredBroadcast: Sendable, Hashable {
    /// The payload as sent.
    public var payload: String
    /// When the mock received it.
    public var receivedAt: Date
    /// `apns-expiration`: seconds since 1970; 0 keeps it no longer than its delivery.
    public var expiration: Int64
    /// `apns-priority` as sent (10 when absent): a later subscriber judges the message at it, as the broadcast's
    /// own subscribers did (only priority 10 counts against an activity's update budget).
    public var priority: Int
    /// The sequence number of the broadcast's record; `nil` until the journal gives it one.
    public var sequence: UInt64?
    /// How long a channel keeps its most recent message at most. doc
    public static let maxAge: Duration = .seconds(8 * 3600)

    /// A stored message from its parts.
    public init(payload: String, receivedAt: Date, expiration: Int64, priority: Int = 10, sequence: UInt64? = nil) {
        self.sequence = sequence
        self.priority = priority
        self.payload = payload
        self.receivedAt = receivedAt
        self.expiration = expiration
    }

    /// When it stops being handed to new subscribers: 8 hours after it was received, or its expiration if sooner.
    public var keptUntil: Date {
        let eightHours = receivedAt.addingTimeInterval(TimeInterval(Self.maxAge.components.seconds))
        guard expiration > 0 else { return receivedAt }
        return min(eightHours, Date(timeIntervalSince1970: TimeInterval(expiration)))
    }

    /// Whether a subscriber at `now` still gets it.
    public func isKept(at now: Date) -> Bool { now < keptUntil }
}
