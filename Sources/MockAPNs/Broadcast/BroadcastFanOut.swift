import Foundation

/// An accepted broadcast on its way to the subscribed activities (structure.md §8b, "hands each subscriber to
/// `Devices/`"): made with the broadcast's record, run once the journal has numbered that record.
///
/// The provider's answer does not wait for it: `MockAPNsEngine.record(_:)` starts it after the append, on the
/// engine's fan-out queue, and its `fan-out` record points at the broadcast's (`FanOutTally`).
final class BroadcastFanOut: Sendable {
    /// The channel sent to.
    let channel: BroadcastChannel
    /// The payload as sent.
    let payload: [UInt8]
    /// `apns-priority` (10 when absent): only priority 10 counts against an activity's update budget.
    let priority: Int
    /// When the mock received the broadcast: the activities judge it at this time.
    let receivedAt: Date
    /// The broadcast record's sequence number, once the journal gives it one.
    let number = PushNumber()

    /// The fan-out of `payload` to `channel`, received at `receivedAt` with `priority`.
    init(channel: BroadcastChannel, payload: [UInt8], priority: Int, receivedAt: Date) {
        self.channel = channel
        self.payload = payload
        self.priority = priority
        self.receivedAt = receivedAt
    }
}
