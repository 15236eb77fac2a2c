extension APNsValidator {
    /// Whether the credential may manage channels of, and broadcast for, the app `bundleID` (shared/live-activities.md
    /// §3): a certificate for its topic, a key not limited to other apps, a token of the app's team. An app the
    /// scenario does not know is taken in lenient mode, and is not enabled for broadcast in strict mode.
    func checkBroadcastApp(_ bundleID: String, _ context: inout Context) throws(Rejection) {
        if let certificate = context.clientCertificate {
            let allowed = certificate.hasTopicsExtension ? certificate.topics : [certificate.uid].compactMap { $0 }
            guard allowed.contains(bundleID) else {
                throw Rejection(
                    .topicMismatch, rule: "broadcast.app-certificate",
                    "the client certificate is for \(allowed.joined(separator: ", ")), not \(bundleID)")
            }
        } else if let key = context.topicLimitedKey, !key.topics.contains(bundleID) {
            throw Rejection(
                .topicMismatch, rule: "broadcast.app-key",
                "key \(key.keyID) is limited to \(key.topics.joined(separator: ", ")), not \(bundleID)")
        }
        if let app = world.apps[bundleID] {
            if let owner = app.teamID, let team = context.auth?.teamID, owner != team {
                throw Rejection(
                    .topicMismatch, rule: "broadcast.app-team", "\(bundleID) belongs to team \(owner), not \(team)")
            }
        } else if world.devicePolicy == .strict, !world.apps.isEmpty {
            throw Rejection(
                .featureNotEnabled, rule: "broadcast.unknown-app",
                "no app \(bundleID) is known (strict mode), so none is enabled for broadcast")
        }
        context.bundleID = bundleID
    }

    /// "`apns-request-id`: a canonical UUID, echoed; a malformed one is 400 BadMessageId" (§3; doc).
    func checkRequestID(_ request: APNsRequest) throws(Rejection) {
        if let requestID = request.header("apns-request-id"), !Self.isCanonicalUUID(requestID) {
            throw Rejection(
                .badMessageId, rule: "apns-request-id",
                "apns-request-id '\(requestID)' is not a UUID (8-4-4-4-12 hex digits)")
        }
    }

    /// The channel id a request names in `apns-channel-id` (or `fromPath`), checked: 400 MissingChannelId without
    /// one, 400 BadChannelId when it is not base64 (§3; doc).
    func checkChannelID(_ request: APNsRequest, fromPath: String? = nil) throws(Rejection) -> String {
        guard let id = request.header("apns-channel-id") ?? fromPath, !id.isEmpty else {
            throw Rejection(.missingChannelId, rule: "apns-channel-id.missing", "no apns-channel-id header")
        }
        guard BroadcastChannel.isWellFormedID(id) else {
            throw Rejection(
                .badChannelId, rule: "apns-channel-id.format",
                "the channel id '\(Excerpt.of(id))' is not base64")
        }
        return id
    }
}
