extension APNsReason {
    // The reasons of the broadcast API that the device API does not use (shared/live-activities.md §3; doc).

    /// The app is not enabled for broadcast (an app the scenario does not know, in strict mode).
    public static let featureNotEnabled = APNsReason("FeatureNotEnabled", status: 400)
    /// No `apns-channel-id` header (nor, where accepted, a channel id in the path).
    public static let missingChannelId = APNsReason("MissingChannelId", status: 400)
    /// The channel id is not base64.
    public static let badChannelId = APNsReason("BadChannelId", status: 400)
    /// No such channel for this app and environment: never created, deleted, or another app's or environment's.
    public static let channelNotRegistered = APNsReason("ChannelNotRegistered", status: 400)
    /// A create body whose members are missing or wrong (`message-storage-policy`).
    public static let badRequestParams = APNsReason("BadRequestParams", status: 400)
    /// A body that is not a JSON object.
    public static let badRequestPayload = APNsReason("BadRequestPayload", status: 400)
    /// No push type: the `apns-push-type` header of a broadcast, the `push-type` member of a create.
    public static let missingPushType = APNsReason("MissingPushType", status: 400)
    /// Over the channels an app may have in one environment (10,000).
    public static let cannotCreateChannelConfig = APNsReason("CannotCreateChannelConfig", status: 400)
    /// The app is not the credential's: a certificate for other topics, a key limited to other apps, another
    /// team's app.
    public static let topicMismatch = APNsReason("TopicMismatch", status: 403)

    /// Every reason of the broadcast and channel management APIs, in the order of shared/live-activities.md §3.
    public static let broadcastAPI: [APNsReason] = [
        .featureNotEnabled, .missingChannelId, .badChannelId, .channelNotRegistered, .badRequestParams,
        .badRequestPayload, .payloadEmpty, .badMessageId, .missingPushType, .invalidPushType,
        .cannotCreateChannelConfig, .badExpirationDate, .topicDisallowed, .badPriority, .badCertificate,
        .badCertificateEnvironment, .topicMismatch, .missingProviderToken, .expiredProviderToken,
        .invalidProviderToken, .badPath, .methodNotAllowed, .payloadTooLarge, .tooManyRequests,
        .tooManyProviderTokenUpdates, .internalServerError, APNsReason("Service Unavailable", status: 503), .shutdown,
    ]
}
