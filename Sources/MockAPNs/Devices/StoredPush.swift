import Foundation

/// A push APNs keeps for an offline phone (phone.md §1 steps 3–4): one per storage slot (`storageSlot`), with what
/// the phone needs to walk it when it comes back online.
struct StoredPush: Sendable {
    /// The push.
    let number: PushNumber
    /// What was sent.
    let request: APNsRequest.Content
    /// The push type it was taken as.
    let pushType: APNsPushType
    /// The app it is for.
    let bundleID: String
    /// The device token it was sent to (lower-case).
    let token: String
    /// When APNs stored it, on the mock's clock.
    let storedAt: Date
    /// When it expires undelivered: `apns-expiration`, else `storageWithoutExpiration`, at most 30 days; for
    /// `apns-expiration: 0`, `expirationZeroGrace` after it was sent.
    let expiresAt: Date
    /// Whether it was sent with `apns-expiration: 0` (kept only for the grace).
    let zeroExpiration: Bool
    /// Whether it was stored for the phone's Low Power Mode (`stored-power`) rather than for being offline.
    let power: Bool
    /// The slot it occupies: `<token> <topic>`, or `<topic>` under `storageSlot: app`.
    let slot: String
}
