/// The switches for facts Apple does not document ("open" in apns-reference.md) and for the HTTP/2 behaviour
/// of the real service. Each default is the choice the README's "Defaults for open facts" table explains.
public struct FidelitySettings: Sendable, Hashable {
    /// Token connections get one concurrent stream until a request with a valid provider token arrives. doc
    public var singleStreamUntilAuthenticated = true
    /// After a rejected push (4xx except 410) MAX_CONCURRENT_STREAMS drops to 1 until the next success. seen
    public var singleStreamAfterError = true
    /// MAX_CONCURRENT_STREAMS once a connection is in good standing (1000 since 2021). seen
    public var maxConcurrentStreams = 1000
    /// The least time between two SETTINGS frames that change MAX_CONCURRENT_STREAMS on one connection; flips
    /// inside it coalesce into the last value, sent when it ends. Zero sends every flip at once, as APNs does;
    /// the 1 s default keeps swift-nio-http2 clients (APNSwift, AsyncHTTPClient) under their control-frame limit.
    public var streamLimitAnnounceInterval: Duration = .seconds(1)
    /// The most `streamLimitAnnounceInterval` may be.
    public static let maxStreamLimitAnnounceInterval: Duration = .seconds(60)
    /// Which check wins when both the method and the path are wrong (open): the method, as in Pushy's mock.
    public var methodCheckedBeforePath = true
    /// The answer when a topic lacks the push type's suffix (open).
    public var topicSuffixMismatch = APNsReason.deviceTokenNotForTopic
    /// The answer for a background push with priority 10: `nil` answers 200 and notes it on the record, as APNs
    /// does (Apple calls it "an error" and names no code; seen answered 200). A reason rejects it.
    public var backgroundPriorityTen: APNsReason? = nil
    /// The answer for a topic the client certificate does not list (open; Pushy's mock says BadTopic).
    public var certificateTopicNotAllowed = APNsReason.badTopic
    /// The answer for a topic outside a topic-specific key's list, or an app of another team (open).
    public var keyTopicNotAllowed = APNsReason.topicDisallowed
    /// The answer for a payload that is not a JSON object (open): `nil` accepts it and flags the record.
    public var invalidJSONPayload: APNsReason? = nil
    /// Whether an `iat` sent as a numeric string is accepted (open; kalyke and APNSwift send it). Flagged.
    public var acceptStringIssuedAt = true
    /// How far in the future an `iat` may be, in seconds, before the token is invalid (open).
    public var maxFutureIssuedAt: Int64 = 3600
    /// How old a provider token may be, in seconds. doc
    public var providerTokenLifetime: Int64 = 3600
    /// The least time between two different provider tokens on one connection, in seconds. doc
    public var providerTokenMinimumInterval: Int64 = 1200
    /// The reason string for a key used in the wrong environment: the wire spelling, not Apple's page. seen
    public var badEnvironmentKeyReasonName = "BadEnvironmentKeyInToken"
    /// Whether upper-case hex device tokens are accepted (open; Pushy's mock accepts them).
    public var acceptUppercaseDeviceTokens = true
    /// A request without `apns-push-type` is taken as an alert (open; older clients omit it). `false`
    /// answers InvalidPushType.
    public var missingPushTypeIsAlert = true
    /// What a client certificate for the other environment gets. seen: a GOAWAY right after SETTINGS.
    public var certificateEnvironmentMismatch = CertificateEnvironmentMismatch.goaway
    /// Whether sandbox 200 answers carry `apns-unique-id` (error answers never do). doc
    public var sandboxUniqueID = true
    /// Whether the channel management port takes the forms APNSwift sends and Apple does not document: the channel
    /// id in the path (`/channels/<id>`) and `GET …/channels` with no id as the list (open). Noted on the record
    /// either way; `false` answers them as Apple documents (404 BadPath, 400 MissingChannelId).
    public var acceptUndocumentedChannelForms = true
    /// How many channels an app may have in one environment; one more is 400 CannotCreateChannelConfig. doc
    public var maxChannelsPerApp = 10_000
    /// The range `maxChannelsPerApp` may be set in.
    public static let maxChannelsPerAppRange = 1...ChannelStore.maxChannels
    /// How many broadcasts one channel of storage policy 0 (no message stored) takes in an hour; `nil`: no limit.
    /// Apple gives policy 0 "a higher publishing budget" than policy 1 and publishes neither number (open): one more
    /// within the hour is 429 TooManyRequests.
    public var broadcastsPerHourPolicy0: Int?
    /// The same for a channel of storage policy 1 (the most recent message stored).
    public var broadcastsPerHourPolicy1: Int?
    /// The range either budget may be set in.
    public static let broadcastsPerHourRange = 1...1_000_000

    /// The hourly broadcast budget of a channel of `policy`; `nil`: no limit.
    func broadcastsPerHour(_ policy: BroadcastChannel.StoragePolicy) -> Int? {
        switch policy {
        case .noStorage: broadcastsPerHourPolicy0
        case .mostRecent: broadcastsPerHourPolicy1
        }
    }

    /// What happens to a connection whose client certificate is for the other environment.
    public enum CertificateEnvironmentMismatch: String, Sendable, Hashable, CaseIterable {
        /// `GOAWAY NO_ERROR last-stream 0 {"reason":"BadCertificateEnvironment"}` (as seen from Apple).
        case goaway
        /// Each request is answered 403 BadCertificateEnvironment.
        case reject
    }

    public init() {}

    /// The reason a key in the wrong environment gets, spelled as configured.
    public var badEnvironmentKeyReason: APNsReason {
        APNsReason(badEnvironmentKeyReasonName, status: 403)
    }
}
