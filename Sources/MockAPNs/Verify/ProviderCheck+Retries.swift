import Foundation

extension ProviderCheck {
    /// The answers that end a token: 410 `Unregistered` and `ExpiredToken`, the `stops-after-unregistered` check.
    ///
    /// "Inactive: 410 Unregistered + timestamp (final) … Expired: 410 ExpiredToken" (apns-reference §9; doc).
    public static let goneReasons: [APNsReason] = [.unregistered, .expiredToken]

    /// The permanent errors of `no-retry-on-permanent-errors`: answers that the same request (same token, topic
    /// and payload) gets again however often it is sent, so that resending it only wastes a request.
    ///
    /// "Do not retry BadDeviceToken, DeviceTokenNotForTopic, Forbidden, ExpiredToken, Unregistered,
    /// PayloadTooLarge" (apns-reference §4; doc), with the other answers about the request itself: its headers,
    /// path, method, topic and payload, and the client certificate it came with. Left out, on purpose:
    /// - 410 `Unregistered`/`ExpiredToken`: final too, but `stops-after-unregistered` is their check, so a push
    ///   after a 410 fails once, there.
    /// - `IdleTimeout`: about the connection, not the request; resending on a new connection is right.
    /// - The provider-token errors (`ExpiredProviderToken`, `InvalidProviderToken`, `MissingProviderToken`,
    ///   `UnrelatedKeyIdInToken`, `BadEnvironmentKeyInToken`): the push is fine and the retry with a new token is
    ///   right; `token-refresh` checks the refresh, and `no-unexpected-errors` reports the others.
    /// - 429, 500, 503: retried with a back-off (`backs-off`).
    /// Documented in scenarios/README.md, "checks".
    public static let permanentReasons: [APNsReason] = [
        .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
        .deviceTokenNotForTopic, .duplicateHeaders, .invalidPushType, .missingDeviceToken, .missingTopic,
        .payloadEmpty, .topicDisallowed, .badCertificate, .badCertificateEnvironment, .forbidden, .badPath,
        .methodNotAllowed, .payloadTooLarge,
    ]

    /// The statuses after which a retry must wait (`backs-off`): "retry 5xx with back-off; retry TooManyRequests
    /// after a delay" (apns-reference §4; doc). Not the 429 `TooManyProviderTokenUpdates`: that one asks for
    /// fewer token refreshes, and `token-refresh` is its check.
    public static let backOffStatuses: Set<Int> = [429, 500, 503]

    /// Whether `record`'s answer asks for a back-off before a retry.
    static func asksForBackOff(_ record: JournalRecord) -> Bool {
        guard let status = record.response?.status, backOffStatuses.contains(status), record.answeredAt != nil else {
            return false
        }
        return record.reason != APNsReason.tooManyProviderTokenUpdates.name
    }

    /// The headers whose values make two pushes with the same token, topic and payload different pushes: those
    /// APNs checks, so a retry that fixes one of them after a `BadPriority` or `BadExpirationDate` is a new push.
    /// `apns-id` only after `BadMessageId` (clients give each send a new id, a real retry included); every header
    /// after `DuplicateHeaders`.
    static func decidingHeaders(after reason: String?) -> [String]? {
        if reason == APNsReason.duplicateHeaders.name { return nil }
        let checked = ["apns-priority", "apns-expiration", "apns-collapse-id", "apns-push-type"]
        return reason == APNsReason.badMessageId.name ? checked + ["apns-id"] : checked
    }

    /// Whether `record` sends again what `failure` sent, as far as `failure`'s reason is concerned.
    static func resends(_ record: JournalRecord, _ failure: JournalRecord) -> Bool {
        guard let names = decidingHeaders(after: failure.reason) else {
            return record.headers.map { [$0.name, $0.value] } == failure.headers.map { [$0.name, $0.value] }
        }
        return names.allSatisfy { name in
            record.headers.first { $0.name == name }?.value == failure.headers.first { $0.name == name }?.value
        }
    }

    /// `stops-after-unregistered`: a request to a token received after that token was answered 410.
    func stopsAfterUnregistered(_ records: [JournalRecord]) -> VerifyReport.Item {
        let gone = Set(Self.goneReasons.map(\.name))
        var goneAt: [String: JournalRecord] = [:]
        var breaches: [Breach] = []
        var pushes = 0
        for record in records {
            guard let token = record.deviceKey else { continue }
            pushes += 1
            if let answer = goneAt[token], record.arrived(after: answer) {
                let why = "sent to a token answered \(answer.outcomeText) in #\(answer.sequence)"
                breaches.append(Breach(record: record, why: why))
            } else if goneAt[token] == nil, let reason = record.reason, gone.contains(reason) {
                goneAt[token] = record
            }
        }
        let lookedAt =
            "\(Self.counted(pushes, "push", plural: "pushes")), "
            + "\(Self.counted(goneAt.count, "token")) answered 410"
        return item(breaches, lookedAt: lookedAt)
    }

    /// `no-retry-on-permanent-errors`: the same request (method, token or path, topic, payload bytes and the
    /// headers of `decidingHeaders`) received again after it was answered with one of `permanentReasons`.
    func noRetryOnPermanentErrors(_ records: [JournalRecord]) -> VerifyReport.Item {
        struct Push: Hashable {
            var method: String
            var target: String
            var topic: String?
            var payload: [UInt8]
        }
        let permanent = Set(Self.permanentReasons.map(\.name))
        var failed: [Push: JournalRecord] = [:]
        var breaches: [Breach] = []
        for record in records {
            let push = Push(
                method: record.method, target: record.deviceKey ?? record.path, topic: record.topic,
                payload: record.payload)
            if let answer = failed[push], record.arrived(after: answer), Self.resends(record, answer) {
                breaches.append(
                    Breach(
                        record: record,
                        why: "the same push as #\(answer.sequence), which was answered \(answer.outcomeText) "
                            + "(permanent)"))
            } else if let reason = record.reason, permanent.contains(reason), record.response != nil {
                failed[push] = record
            }
        }
        return item(breaches, lookedAt: "\(Self.counted(failed.count, "push", plural: "pushes")) failed permanently")
    }

    /// `backs-off`: after a 429, 500 or 503 answer, the next request to the same token received sooner than
    /// `minimumBackoff` after that answer (requests already in flight when it was answered do not count).
    func backsOff(_ records: [JournalRecord]) -> VerifyReport.Item {
        var waiting: [String: JournalRecord] = [:]
        var breaches: [Breach] = []
        var retries = 0
        let minimum = DurationText.seconds(minimumBackoff)
        for record in records {
            guard let token = record.deviceKey else { continue }
            if let answer = waiting[token], let answeredAt = answer.answeredAt, record.arrived(after: answer) {
                waiting[token] = nil
                retries += 1
                // To the microsecond: a retry exactly `minimum` after the answer waited long enough.
                let wait = (record.receivedAt.timeIntervalSince(answeredAt) * 1e6).rounded() / 1e6
                if wait < minimum {
                    let waited = Self.elapsed(from: answeredAt, to: record.receivedAt)
                    breaches.append(
                        Breach(
                            record: record,
                            why: "a retry \(waited) after #\(answer.sequence) was answered \(answer.outcomeText); "
                                + "wait at least \(DurationText.text(minimumBackoff))"))
                }
            }
            if Self.asksForBackOff(record) { waiting[token] = record }
        }
        let lookedAt =
            "\(Self.counted(retries, "retry", plural: "retries")) after 429/500/503, "
            + "minimum \(DurationText.text(minimumBackoff))"
        return item(breaches, lookedAt: lookedAt)
    }
}
