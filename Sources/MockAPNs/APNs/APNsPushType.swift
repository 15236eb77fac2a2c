/// The `apns-push-type` header: what kind of notification a request carries.
///
/// Each type knows the suffix its `apns-topic` must carry and which credentials may send it
/// (apns-reference.md §3, doc unless noted).
public struct APNsPushType: Sendable, Hashable, CustomStringConvertible {
    /// The header value.
    public var name: String
    /// What `apns-topic` must append to the bundle id (empty for alert and background).
    public var topicSuffix: String
    /// Whether only token (JWT) connections may send it.
    public var requiresTokenAuth: Bool
    /// The payload limit in bytes.
    public var payloadLimit: Int

    public init(_ name: String, topicSuffix: String, requiresTokenAuth: Bool = false, payloadLimit: Int = 4096) {
        self.name = name
        self.topicSuffix = topicSuffix
        self.requiresTokenAuth = requiresTokenAuth
        self.payloadLimit = payloadLimit
    }

    public var description: String { name }

    public static let alert = APNsPushType("alert", topicSuffix: "")
    public static let background = APNsPushType("background", topicSuffix: "")
    public static let location = APNsPushType("location", topicSuffix: ".location-query", requiresTokenAuth: true)
    public static let voip = APNsPushType("voip", topicSuffix: ".voip", payloadLimit: 5120)
    public static let complication = APNsPushType("complication", topicSuffix: ".complication")
    public static let fileprovider = APNsPushType("fileprovider", topicSuffix: ".pushkit.fileprovider")
    /// The topic of an MDM push is the UID of the MDM certificate, so no suffix applies.
    public static let mdm = APNsPushType("mdm", topicSuffix: "")
    public static let liveactivity = APNsPushType(
        "liveactivity", topicSuffix: ".push-type.liveactivity", requiresTokenAuth: true)
    /// Which credential pushtotalk needs is open; certificates are allowed here.
    public static let pushtotalk = APNsPushType("pushtotalk", topicSuffix: ".voip-ptt")
    public static let widgets = APNsPushType("widgets", topicSuffix: ".push-type.widgets", requiresTokenAuth: true)
    public static let controls = APNsPushType("controls", topicSuffix: ".push-type.controls", requiresTokenAuth: true)

    /// All eleven push types APNs knows.
    public static let all: [APNsPushType] = [
        .alert, .background, .location, .voip, .complication, .fileprovider, .mdm, .liveactivity, .pushtotalk,
        .widgets, .controls,
    ]

    /// The push type named by an `apns-push-type` value, or `nil` if APNs does not know it.
    public static func named(_ name: String) -> APNsPushType? {
        all.first { $0.name == name }
    }

    /// The bundle id a topic names for this push type, or `nil` when the topic lacks the suffix. Topics are
    /// compared byte for byte, as APNs compares them.
    public func bundleID(fromTopic topic: String) -> String? {
        if topicSuffix.isEmpty { return topic }
        guard topic.utf8HasSuffix(topicSuffix), topic.utf8.count > topicSuffix.utf8.count else { return nil }
        return String(topic.utf8.dropLast(topicSuffix.utf8.count))
    }

    /// The push type whose (non-empty) topic suffix `topic` ends with, if any (checked for every push whose type
    /// has no suffix, such as alert).
    static func typeWithSuffix(ofTopic topic: String) -> APNsPushType? {
        suffixed.first { topic.utf8HasSuffix($0.topicSuffix) }
    }

    /// The push types with a topic suffix.
    private static let suffixed = all.filter { !$0.topicSuffix.isEmpty }
}
