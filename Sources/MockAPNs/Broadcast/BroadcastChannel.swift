import Foundation

/// One broadcast channel: an app's, in one environment, with its message storage policy (shared/live-activities.md
/// §3).
public struct BroadcastChannel: Sendable, Hashable {
    /// What the channel keeps of its messages for activities that subscribe (or come back) later.
    public enum StoragePolicy: Int, Sendable, Hashable, CaseIterable {
        /// No message stored (a higher publishing budget); broadcasts need `apns-expiration: 0`. doc
        case noStorage = 0
        /// The most recent message, kept up to 8 hours (and its expiration). doc
        case mostRecent = 1
    }

    /// The id: base64 of random bytes, never reused within a server run.
    public var id: String
    /// The app (bundle id) it belongs to.
    public var bundleID: String
    /// The environment it belongs to; the other environment does not see it.
    public var environment: APNsEnvironment
    /// `message-storage-policy`.
    public var storagePolicy: StoragePolicy
    /// When it was created (a declared channel: when the scenario was applied).
    public var createdAt: Date
    /// Whether the scenario declares it (`channels:`): a reset restores it, where it clears created ones.
    public var declared: Bool

    /// A channel from its parts.
    public init(
        id: String, bundleID: String, environment: APNsEnvironment, storagePolicy: StoragePolicy, createdAt: Date,
        declared: Bool = false
    ) {
        self.id = id
        self.bundleID = bundleID
        self.environment = environment
        self.storagePolicy = storagePolicy
        self.createdAt = createdAt
        self.declared = declared
    }

    /// The only push type a channel carries, as a create names it and a read answers it.
    public static let pushType = "LiveActivity"

    /// The body of a read: `{"message-storage-policy": n, "push-type": "LiveActivity"}`.
    var readBody: JSONValue {
        .object([
            ("message-storage-policy", .number(String(storagePolicy.rawValue))), ("push-type", .string(Self.pushType)),
        ])
    }

    /// Whether `text` is a channel id as APNs takes it: standard base64, padded, of at least one byte.
    ///
    /// Checked character by character: Foundation's decoder on Linux takes `====` or `AA=A`.
    public static func isWellFormedID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maxIDLength, bytes.count % 4 == 0 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2, bytes.count - padding >= 2 else { return false }
        return bytes.dropLast(padding).allSatisfy(isBase64Digit)
    }

    /// A digit of standard base64: `A`–`Z`, `a`–`z`, `0`–`9`, `+`, `/`.
    private static func isBase64Digit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
            true
        default: false
        }
    }

    /// The longest channel id taken (Apple gives no size; the ones it issues are about 24 characters).
    public static let maxIDLength = 256
}
