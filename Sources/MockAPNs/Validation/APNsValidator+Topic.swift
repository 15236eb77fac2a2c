extension APNsValidator {
    /// Topic rules (§3, §5, §6): present where required, the push type's suffix, allowed for the credential.
    func checkTopic(_ request: APNsRequest, _ context: inout Context) throws(Rejection) {
        let pushType = context.pushType ?? .alert
        var topic = request.fields.topic
        let certificate = context.clientCertificate

        if topic == nil || topic?.isEmpty == true {
            // "A single-topic certificate makes apns-topic optional; multi-topic needs it" (§6; doc).
            if let certificate, !certificate.hasTopicsExtension, let uid = certificate.uid {
                topic = uid
                context.notes.append("no apns-topic: the certificate's topic \(uid) is used")
            } else {
                throw Rejection(.missingTopic, rule: "apns-topic.missing", "apns-topic is required on this connection")
            }
        }
        guard let topic else { return }
        context.topic = topic

        // "liveactivity: token only (cert gives TopicDisallowed, seen)"; location, widgets, controls likewise.
        if certificate != nil, pushType.requiresTokenAuth {
            throw Rejection(
                .topicDisallowed, rule: "apns-topic.certificate-push-type",
                "\(pushType.name) pushes need token authentication, not a certificate")
        }

        // The push type's topic suffix; the answer for a missing suffix is open (`topicSuffixMismatch`).
        guard let bundleID = pushType.bundleID(fromTopic: topic) else {
            throw Rejection(
                world.fidelity.topicSuffixMismatch, rule: "apns-topic.suffix",
                "a \(pushType.name) push needs the topic <bundle id>\(pushType.topicSuffix), got \(topic)")
        }
        if pushType.topicSuffix.isEmpty, pushType != .mdm,
            let other = context.memo.typeWithSuffix(ofTopic: topic)
        {
            throw Rejection(
                world.fidelity.topicSuffixMismatch, rule: "apns-topic.suffix",
                "the topic \(topic) is for \(other.name) pushes, but apns-push-type is \(pushType.name)")
        }
        context.bundleID = bundleID

        if let certificate {
            // "Topic not in the certificate: BadTopic in Pushy's mock; real answer open" (§6).
            let allowed = certificate.hasTopicsExtension ? certificate.topics : [certificate.uid].compactMap { $0 }
            guard allowed.contains(topic) || (!certificate.hasTopicsExtension && certificate.uid == bundleID) else {
                throw Rejection(
                    world.fidelity.certificateTopicNotAllowed, rule: "apns-topic.certificate",
                    "the client certificate allows \(allowed.joined(separator: ", ")), not \(topic)")
            }
            return
        }

        // Topic-specific keys are "limited to listed topics" (§5; doc; the answer is open).
        if let key = context.topicLimitedKey, !key.topics.contains(bundleID) {
            throw Rejection(
                world.fidelity.keyTopicNotAllowed, rule: "apns-topic.key",
                "key \(key.keyID) is limited to \(key.topics.joined(separator: ", ")), not \(bundleID)")
        }
        // An app of another team is not this token's to push to.
        if let app = world.apps[bundleID] {
            if let owner = app.teamID, let team = context.auth?.teamID, owner != team {
                throw Rejection(
                    world.fidelity.keyTopicNotAllowed, rule: "apns-topic.team",
                    "\(bundleID) belongs to team \(owner), not \(team)")
            }
        } else if world.devicePolicy == .strict, !world.apps.isEmpty {
            throw Rejection(
                world.fidelity.keyTopicNotAllowed, rule: "apns-topic.unknown-app",
                "no app \(bundleID) is known (strict mode)")
        }
    }
}
