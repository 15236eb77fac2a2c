import Foundation

/// The rules of `POST /4/broadcasts/apps/<bundle>` on the APNs port (shared/live-activities.md §3): one Live
/// Activity update to every activity subscribed to a channel.
///
/// Check order (Apple documents none; the device API's, §10): certificate environment, path, method, request id,
/// provider authentication, app and topic, push type, channel, priority, expiration, payload, the mock's fan-out
/// backlog, the channel's hourly budget (a setting: Apple publishes none). The first failure decides.
struct BroadcastValidator {
    /// The connection's rules over the world: authentication, the world's apps and settings.
    let validator: APNsValidator
    /// The channels of the run.
    let store: ChannelStore
    /// The broadcasts waiting for their fan-out: an accepted broadcast takes a place in it.
    let backlog: FanOutBacklog

    /// The path every broadcast is sent to, before the bundle id.
    static let pathPrefix = "/4/broadcasts/apps/"
    /// "Payload up to 5120 bytes" (§3; doc).
    static let payloadLimit = 5120

    /// Decides one broadcast received at `now`. `auth` is the connection's provider-token state.
    func decide(
        _ request: APNsRequest, connection: ConnectionInfo, auth: inout ProviderAuthState, memo: ValidationMemo,
        now: Date
    ) -> BroadcastDecision {
        var decision = BroadcastDecision()
        var context = APNsValidator.Context(clientCertificate: connection.clientCertificate, now: now, memo: memo)
        do throws(Rejection) {
            try validator.checkConnection(request, &context)
            let bundleID = try route(request)
            decision.bundleID = bundleID
            try validator.checkRequestID(request)
            try validator.checkProviderAuthentication(request, &context, auth: &auth)
            try checkTopic(request)
            try validator.checkBroadcastApp(bundleID, &context)
            try checkPushType(request)
            let id = try validator.checkChannelID(request)
            decision.channelID = id
            let environment = validator.world.environment
            guard let channel = store.channel(id, bundleID: bundleID, environment: environment) else {
                throw Rejection(
                    .channelNotRegistered, rule: "channel.unknown",
                    "\(bundleID) has no channel \(id) in \(environment) (never created, or deleted)")
            }
            decision.channel = channel
            decision.priority = try checkPriority(request)
            decision.expiration = try checkExpiration(request, channel: channel)
            try checkPayload(request)
            try reserveFanOut()
            do throws(Rejection) {
                try takeFromBudget(of: channel, now: now)
            } catch {
                backlog.release()
                throw error
            }
        } catch {
            decision.rejection = error
        }
        decision.auth = context.auth
        decision.notes.insert(contentsOf: context.notes, at: 0)
        return decision
    }

    /// A place in the fan-out backlog: past `FanOutBacklog.limit` broadcasts waiting, 429 (the mock's own bound,
    /// so that a flood to a channel with many subscribers neither grows a queue without end nor fans out hours late).
    private func reserveFanOut() throws(Rejection) {
        guard !backlog.reserve() else { return }
        throw Rejection(
            .tooManyRequests, rule: "channel.fan-out-backlog",
            "\(FanOutBacklog.limit) broadcasts already wait to reach their subscribers; the mock refuses more until "
                + "they have (its own bound, not Apple's)")
    }

    /// A channel's broadcasts in an hour, under `broadcastsPerHourPolicy0`/`1` (open: Apple gives policy 0 "a
    /// higher publishing budget" and no number); last, so that only a broadcast otherwise accepted is counted.
    private func takeFromBudget(of channel: BroadcastChannel, now: Date) throws(Rejection) {
        let policy = channel.storagePolicy
        guard let limit = validator.world.fidelity.broadcastsPerHour(policy),
            let taken = store.takeBroadcast(channel.id, limit: limit, now: now)
        else { return }
        throw Rejection(
            .tooManyRequests, rule: "channel.budget",
            "channel \(channel.id) already took \(taken) broadcasts this hour "
                + "(broadcastsPerHourPolicy\(policy.rawValue): \(limit); Apple publishes no number)")
    }

    /// "Any other path: 404 BadPath; a method other than POST: 405 MethodNotAllowed" (§3; doc). The bundle id.
    private func route(_ request: APNsRequest) throws(Rejection) -> String {
        let path = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let bundleID = path.dropFirst(Self.pathPrefix.count)
        guard path.hasPrefix(Self.pathPrefix), !bundleID.isEmpty, !bundleID.contains("/") else {
            throw Rejection(
                .badPath, rule: "path",
                "\(request.path) is not a broadcast path; APNs serves POST \(Self.pathPrefix)<bundle>")
        }
        guard request.method == "POST" else {
            throw Rejection(.methodNotAllowed, rule: "method", "\(request.method) is not allowed; broadcasts take POST")
        }
        return String(bundleID)
    }

    /// "`apns-topic` is not needed; a push-type suffix gives TopicDisallowed" (§3; doc).
    private func checkTopic(_ request: APNsRequest) throws(Rejection) {
        let suffix = APNsPushType.liveactivity.topicSuffix
        if let topic = request.fields.topic, topic.hasSuffix(suffix) {
            throw Rejection(
                .topicDisallowed, rule: "apns-topic.suffix",
                "a broadcast names its app in the path; apns-topic \(topic) carries the \(suffix) suffix")
        }
    }

    /// "`apns-push-type: liveactivity`, required; Apple spells it three ways, so compared case-insensitively"
    /// (§3; doc).
    private func checkPushType(_ request: APNsRequest) throws(Rejection) {
        guard let value = request.fields.pushType else {
            throw Rejection(.missingPushType, rule: "apns-push-type.missing", "a broadcast needs apns-push-type")
        }
        guard value.lowercased() == APNsPushType.liveactivity.name else {
            throw Rejection(
                .invalidPushType, rule: "apns-push-type", "apns-push-type is '\(value)'; broadcasts take liveactivity")
        }
    }

    /// "`apns-priority`, required: 5 or 10 for a Live Activity" (§3, §2; doc).
    private func checkPriority(_ request: APNsRequest) throws(Rejection) -> Int {
        guard let value = request.fields.priority else {
            throw Rejection(.badPriority, rule: "apns-priority.missing", "a broadcast needs apns-priority (5 or 10)")
        }
        guard let priority = Int(value), priority == 5 || priority == 10 else {
            throw Rejection(.badPriority, rule: "apns-priority", "apns-priority '\(value)' is not 5 or 10")
        }
        return priority
    }

    /// "`apns-expiration`, required; non-zero on a policy-0 channel: 400 BadExpirationDate" (§3; doc).
    private func checkExpiration(_ request: APNsRequest, channel: BroadcastChannel) throws(Rejection) -> Int64 {
        guard let value = request.fields.expiration else {
            throw Rejection(
                .badExpirationDate, rule: "apns-expiration.missing", "a broadcast needs apns-expiration (0 or a time)")
        }
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let expiration = Int64(value) else {
            throw Rejection(
                .badExpirationDate, rule: "apns-expiration",
                "apns-expiration '\(value)' is not a whole number of seconds since 1970")
        }
        if channel.storagePolicy == .noStorage, expiration != 0 {
            throw Rejection(
                .badExpirationDate, rule: "apns-expiration.no-storage",
                "channel \(channel.id) stores no message (message-storage-policy 0): apns-expiration must be 0")
        }
        return expiration
    }

    /// "Empty: PayloadEmpty; over 5120 bytes: 413 PayloadTooLarge; not a JSON object: BadRequestPayload" (§3; doc).
    private func checkPayload(_ request: APNsRequest) throws(Rejection) {
        guard !request.body.isEmpty else {
            throw Rejection(.payloadEmpty, rule: "payload.empty", "a broadcast needs a payload")
        }
        guard !request.bodyTruncated, request.body.count <= Self.payloadLimit else {
            throw Rejection(
                .payloadTooLarge, rule: "payload.size",
                "the payload is \(request.bodyTruncated ? "over 64 KiB" : "\(request.body.count) bytes"); "
                    + "broadcasts take up to \(Self.payloadLimit)")
        }
        guard case .object? = try? JSONParser.parse(request.body) else {
            throw Rejection(.badRequestPayload, rule: "payload.json", "the payload is not a JSON object")
        }
    }
}
