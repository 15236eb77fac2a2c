import Foundation

extension ProviderCheck {
    /// The answers of `token-refresh` besides an old token: "iat older than 1 hour: 403 ExpiredProviderToken" and
    /// "a new token on the same connection less than 20 minutes after the previous one: 429
    /// TooManyProviderTokenUpdates" (apns-reference §5; doc).
    public static let tokenRefreshReasons: [APNsReason] = [.expiredProviderToken, .tooManyProviderTokenUpdates]

    /// `reuses-connections`: more than `maxConnections` connections carried requests. Names the first request on
    /// each connection beyond the limit; connections that sent no request are not in the journal.
    func reusesConnections(_ records: [JournalRecord]) -> VerifyReport.Item {
        var seen: Set<UInt64> = []
        var breaches: [Breach] = []
        // A replay (connection 0) came through the control API, not from the provider.
        for record in records
        where record.connectionID != 0 && seen.insert(record.connectionID).inserted && seen.count > maxConnections {
            breaches.append(
                Breach(
                    record: record,
                    why: "the first request on connection \(record.connectionID), which made \(seen.count) "
                        + "connections carrying requests; keep at most \(maxConnections) open and reuse them"))
        }
        let lookedAt =
            "\(Self.counted(records.count, "request")) on \(Self.counted(seen.count, "connection")), "
            + "at most \(maxConnections)"
        return item(breaches, lookedAt: lookedAt)
    }

    /// `token-refresh`: an `ExpiredProviderToken` or `TooManyProviderTokenUpdates` answer that no rule scripted, or
    /// a request whose provider token was issued more than `maxTokenAge` before it was received.
    func tokenRefresh(_ records: [JournalRecord]) -> VerifyReport.Item {
        let refused = Set(Self.tokenRefreshReasons.map(\.name))
        let maxAge = DurationText.seconds(maxTokenAge)
        var breaches: [Breach] = []
        var tokenRequests = 0
        for record in records {
            if let reason = record.reason, refused.contains(reason), record.response != nil,
                !record.rule.hasPrefix(Verdict.scriptedRulePrefix)
            {
                let advice =
                    reason == APNsReason.expiredProviderToken.name
                    ? "make a new provider token before the old one is \(DurationText.text(maxTokenAge)) old"
                    : "make a new provider token at most once every 20 minutes, not for every request"
                breaches.append(Breach(record: record, why: "answered \(reason): \(advice)"))
                continue
            }
            guard let auth = record.auth, auth.kind == "token", let issuedAt = auth.issuedAt else { continue }
            tokenRequests += 1
            let issued = Date(timeIntervalSince1970: TimeInterval(issuedAt))
            if record.receivedAt.timeIntervalSince(issued) > maxAge {
                breaches.append(
                    Breach(
                        record: record,
                        why: "its provider token was issued \(Self.elapsed(from: issued, to: record.receivedAt)) "
                            + "before (iat \(issuedAt)); refresh it within \(DurationText.text(maxTokenAge))"))
            }
        }
        let lookedAt =
            "\(Self.counted(tokenRequests, "request")) with a provider token, "
            + "max age \(DurationText.text(maxTokenAge))"
        return item(breaches, lookedAt: lookedAt)
    }

    /// `no-unexpected-errors`: a 4xx answer that no rule scripted and no expectation names. 410 answers are left
    /// out: they come from the scenario's devices (or a rule), and `stops-after-unregistered` is their check.
    func noUnexpectedErrors(_ records: [JournalRecord], expectations: [ScenarioExpectation]) -> VerifyReport.Item {
        var breaches: [Breach] = []
        var errors = 0
        for record in records {
            guard let status = record.response?.status, (400..<500).contains(status), status != 410 else { continue }
            errors += 1
            if record.rule.hasPrefix(Verdict.scriptedRulePrefix) { continue }
            if ScenarioExpectation.anyNames(record, in: expectations) { continue }
            let why = "no rule scripted it and no expectation names it (\(record.rule): \(record.explanation))"
            breaches.append(Breach(record: record, why: why))
        }
        let lookedAt =
            "\(Self.counted(errors, "4xx answer")) other than 410 in "
            + Self.counted(records.count, "request")
        return item(breaches, lookedAt: lookedAt)
    }
}
