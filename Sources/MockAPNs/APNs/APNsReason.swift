/// An APNs error reason: the string in `{"reason": "..."}` and the HTTP status it is sent with.
///
/// An open struct rather than an enum, like `HTTPResponse.Status`, so that a reason Apple adds later (or a
/// scenario scripts) does not need a new release. Statuses follow apns-reference.md §4 (doc).
public struct APNsReason: Sendable, Hashable, CustomStringConvertible {
    /// The reason string as it appears on the wire.
    public var name: String
    /// The HTTP status APNs answers with.
    public var status: Int

    public init(_ name: String, status: Int) {
        self.name = name
        self.status = status
    }

    public var description: String { "\(status) \(name)" }

    /// Whether APNs includes a `timestamp` (milliseconds since the epoch) in the body: 410 answers.
    public var carriesTimestamp: Bool { status == 410 }

    // 400
    public static let badCollapseId = APNsReason("BadCollapseId", status: 400)
    public static let badDeviceToken = APNsReason("BadDeviceToken", status: 400)
    public static let badExpirationDate = APNsReason("BadExpirationDate", status: 400)
    public static let badMessageId = APNsReason("BadMessageId", status: 400)
    public static let badPriority = APNsReason("BadPriority", status: 400)
    public static let badTopic = APNsReason("BadTopic", status: 400)
    public static let deviceTokenNotForTopic = APNsReason("DeviceTokenNotForTopic", status: 400)
    public static let duplicateHeaders = APNsReason("DuplicateHeaders", status: 400)
    public static let idleTimeout = APNsReason("IdleTimeout", status: 400)
    public static let invalidPushType = APNsReason("InvalidPushType", status: 400)
    public static let missingDeviceToken = APNsReason("MissingDeviceToken", status: 400)
    public static let missingTopic = APNsReason("MissingTopic", status: 400)
    public static let payloadEmpty = APNsReason("PayloadEmpty", status: 400)
    public static let topicDisallowed = APNsReason("TopicDisallowed", status: 400)
    // 403
    public static let badCertificate = APNsReason("BadCertificate", status: 403)
    public static let badCertificateEnvironment = APNsReason("BadCertificateEnvironment", status: 403)
    public static let expiredProviderToken = APNsReason("ExpiredProviderToken", status: 403)
    public static let forbidden = APNsReason("Forbidden", status: 403)
    public static let invalidProviderToken = APNsReason("InvalidProviderToken", status: 403)
    public static let missingProviderToken = APNsReason("MissingProviderToken", status: 403)
    public static let unrelatedKeyIdInToken = APNsReason("UnrelatedKeyIdInToken", status: 403)
    /// The wire spelling seen in 2025; Apple's page says `BadEnvironmentKeyIdInToken` (see `FidelitySettings`).
    public static let badEnvironmentKeyInToken = APNsReason("BadEnvironmentKeyInToken", status: 403)
    // 404, 405
    public static let badPath = APNsReason("BadPath", status: 404)
    public static let methodNotAllowed = APNsReason("MethodNotAllowed", status: 405)
    // 410
    public static let expiredToken = APNsReason("ExpiredToken", status: 410)
    public static let unregistered = APNsReason("Unregistered", status: 410)
    // 413
    public static let payloadTooLarge = APNsReason("PayloadTooLarge", status: 413)
    // 429
    public static let tooManyProviderTokenUpdates = APNsReason("TooManyProviderTokenUpdates", status: 429)
    public static let tooManyRequests = APNsReason("TooManyRequests", status: 429)
    // 500, 503
    public static let internalServerError = APNsReason("InternalServerError", status: 500)
    public static let serviceUnavailable = APNsReason("ServiceUnavailable", status: 503)
    public static let shutdown = APNsReason("Shutdown", status: 503)

    /// Every reason of the device API, in the order of apns-reference.md §4.
    public static let deviceAPI: [APNsReason] = [
        .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
        .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
        .missingTopic, .payloadEmpty, .topicDisallowed, .badCertificate, .badCertificateEnvironment,
        .expiredProviderToken, .forbidden, .invalidProviderToken, .missingProviderToken, .unrelatedKeyIdInToken,
        .badEnvironmentKeyInToken, .badPath, .methodNotAllowed, .expiredToken, .unregistered, .payloadTooLarge,
        .tooManyProviderTokenUpdates, .tooManyRequests, .internalServerError, .serviceUnavailable, .shutdown,
    ]

    /// Looks a reason up by its wire name; `nil` for a name APNs does not use on the device API.
    public static func named(_ name: String) -> APNsReason? {
        if name == "BadEnvironmentKeyIdInToken" { return APNsReason(name, status: 403) }
        return deviceAPI.first { $0.name == name }
    }
}
