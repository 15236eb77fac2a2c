import Foundation

extension APNsValidator {
    /// Provider authentication (§5): the bearer token on token connections; nothing per request on
    /// certificate connections (the `authorization` header is ignored there, doc).
    func checkProviderAuthentication(_ request: APNsRequest, _ context: inout Context, auth: inout ProviderAuthState) throws(Rejection) {
        if let certificate = context.clientCertificate {
            context.auth = AuthSummary(
                kind: "certificate", teamID: nil, verified: true, certificateTopics: certificate.topics)
            return
        }

        // "No header on a token connection: 403 MissingProviderToken" (§5; doc).
        guard let header = request.fields.authorization else {
            throw Rejection(.missingProviderToken, rule: "provider-token.missing", "no authorization header on a token connection")
        }
        // The connection's current token, checked in full before and the world unchanged since: only the checks
        // that depend on the time remain, and the rest of the outcome is replayed (it depends on nothing else).
        if let accepted = auth.accepted, accepted.header == header {
            context.auth = accepted.summary
            context.topicLimitedKey = accepted.key
            if !accepted.notes.isEmpty { context.notes.append(contentsOf: accepted.notes) }
            try checkProviderTokenTime(issuedAt: accepted.issuedAt, now: context.now)
            return
        }
        let notesBefore = context.notes.count

        // Parse and signature check happen once per distinct token string on the connection.
        guard let (raw, verdict) = auth.verdict(forHeader: header, world: world) else {
            throw Rejection(.invalidProviderToken, rule: "provider-token.scheme", "authorization is not 'bearer <JWT>'")
        }
        let (token, key, signatureValid): (ProviderToken, SigningKey?, Bool)
        switch verdict {
        case .malformed(let message):
            throw Rejection(.invalidProviderToken, rule: "provider-token.malformed", "the provider token is malformed: \(message)")
        case .parsed(let t, let k, let valid):
            (token, key, signatureValid) = (t, k, valid)
        }
        context.auth = AuthSummary(
            kind: "token", teamID: token.issuer, keyID: token.keyID, issuedAt: token.issuedAt,
            verified: key != nil && signatureValid)

        // "alg other than ES256, malformed token: 403 InvalidProviderToken" (§5; doc).
        guard token.algorithm == "ES256" else {
            throw Rejection(
                .invalidProviderToken, rule: "provider-token.alg",
                "the token's alg is \(token.algorithm.map { "'\($0)'" } ?? "missing"); APNs takes ES256")
        }
        guard let keyID = token.keyID, !keyID.isEmpty else {
            throw Rejection(.invalidProviderToken, rule: "provider-token.kid", "the token header has no kid")
        }
        guard let issuer = token.issuer, !issuer.isEmpty else {
            throw Rejection(.invalidProviderToken, rule: "provider-token.iss", "the token claims have no iss (team id)")
        }
        guard let issuedAt = token.issuedAt else {
            throw Rejection(.invalidProviderToken, rule: "provider-token.iat", "the token claims have no numeric iat")
        }
        // "Whether APNs accepts a string iat: open — accept it by default, flag it" (§5; lib).
        if token.issuedAtWasString {
            guard world.fidelity.acceptStringIssuedAt else {
                throw Rejection(.invalidProviderToken, rule: "provider-token.iat-string", "the token's iat is a string, not a number")
            }
            context.notes.append("provider token iat sent as a string")
        }
        if token.issuedAtHadFraction {
            context.notes.append("provider token iat sent with a fraction of a second: truncated")
        }

        // "Unknown kid, wrong iss for the key, bad signature: 403 InvalidProviderToken" (§5; doc). In lenient
        // mode an unknown key is accepted and the record says it was not verified (design.md).
        if let key {
            guard key.teamID == issuer else {
                throw Rejection(
                    .invalidProviderToken, rule: "provider-token.team",
                    "key \(keyID) belongs to team \(key.teamID), but the token's iss is \(issuer)")
            }
            guard signatureValid else {
                throw Rejection(
                    .invalidProviderToken, rule: "provider-token.signature",
                    "the token's signature does not verify with key \(keyID)")
            }
            // "team-scoped keys limited to one environment (wrong environment: 403 BadEnvironmentKeyInToken)".
            if let environment = key.environment, environment != world.environment {
                throw Rejection(
                    world.fidelity.badEnvironmentKeyReason, rule: "provider-token.environment",
                    "key \(keyID) is limited to \(environment); this server is \(world.environment)")
            }
            if !key.topics.isEmpty { context.topicLimitedKey = key }
        } else if world.keyPolicy == .strict {
            throw Rejection(.invalidProviderToken, rule: "provider-token.unknown-key", "no key \(keyID) is known (strict mode)")
        } else {
            context.notes.append("key \(keyID) is unknown: signature not verified (lenient mode)")
        }

        // The times are judged on the mock's clock, which may be moved away from the provider's real time: the
        // iat as the mock reads it, for the lifetime, the refresh rate and the replay of this token.
        let judgedIssuedAt: Int64
        if let providerTokenClock {
            let reading = providerTokenClock.reading(
                token: raw, issuedAt: issuedAt, now: context.now, fidelity: world.fidelity)
            if let note = reading.note { context.notes.append(note) }
            judgedIssuedAt = reading.issuedAt
        } else {
            judgedIssuedAt = issuedAt
        }
        try checkProviderTokenTime(issuedAt: judgedIssuedAt, now: context.now)

        // "One team per connection, bound on the first push; another team later: 403 InvalidProviderToken" (seen).
        if let boundTeam = auth.teamID, boundTeam != issuer {
            throw Rejection(
                .invalidProviderToken, rule: "provider-token.connection-team",
                "this connection belongs to team \(boundTeam); a token of team \(issuer) needs a new connection")
        }
        // "Mixing an unrelated key on a connection: 403 UnrelatedKeyIdInToken" (doc/seen).
        if let boundKey = auth.keyID, boundKey != keyID {
            throw Rejection(
                .unrelatedKeyIdInToken, rule: "provider-token.connection-key",
                "this connection was opened with key \(boundKey); key \(keyID) needs a new connection")
        }
        // "A new token on the same connection less than 20 minutes after the previous one: 429
        // TooManyProviderTokenUpdates" (doc/seen). Measured between the two tokens' iat values, so re-signing
        // with the same iat (per topic) is caught and a token kept for 55 minutes is not punished.
        if auth.currentToken != nil, !auth.isCurrent(header: header, token: raw), let currentIssuedAt = auth.currentIssuedAt,
            Self.difference(judgedIssuedAt, currentIssuedAt) < world.fidelity.providerTokenMinimumInterval
        {
            throw Rejection(
                .tooManyProviderTokenUpdates, rule: "provider-token.refresh-rate",
                "a new token issued \(Self.difference(judgedIssuedAt, currentIssuedAt)) s after the connection's current one; refresh at most every \(world.fidelity.providerTokenMinimumInterval) s"
            )
        }

        auth.teamID = issuer
        auth.keyID = keyID
        auth.install(header: header, token: raw, issuedAt: judgedIssuedAt)
        auth.accepted = ProviderAuthState.Accepted(
            header: header, issuedAt: judgedIssuedAt, summary: context.auth, key: context.topicLimitedKey,
            notes: Array(context.notes[notesBefore...]))
    }

    /// "iat older than 1 hour: 403 ExpiredProviderToken" (§5; doc). A future iat: open (`maxFutureIssuedAt`).
    func checkProviderTokenTime(issuedAt: Int64, now: Date) throws(Rejection) {
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        // iat is the client's: any Int64, so the differences saturate instead of trapping.
        if Self.difference(nowSeconds, issuedAt) > world.fidelity.providerTokenLifetime {
            throw Rejection(
                .expiredProviderToken, rule: "provider-token.expired",
                "the token was issued \(Self.difference(nowSeconds, issuedAt)) s ago; tokens last \(world.fidelity.providerTokenLifetime) s")
        }
        if Self.difference(issuedAt, nowSeconds) > world.fidelity.maxFutureIssuedAt {
            throw Rejection(
                .invalidProviderToken, rule: "provider-token.future",
                "the token's iat is \(Self.difference(issuedAt, nowSeconds)) s in the future")
        }
    }

    /// `a - b`, saturating at `Int64.min` / `Int64.max` instead of trapping.
    static func difference(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        guard overflow else { return result }
        return a < b ? .min : .max
    }

    /// `a + b`, saturating at `Int64.min` / `Int64.max` instead of trapping.
    static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return result }
        return b < 0 ? .min : .max
    }

    /// The token in `bearer <token>` (scheme case-insensitive), compared byte-wise: this runs for every request.
    static func bearerToken(_ header: String) -> Substring? {
        let utf8 = header.utf8
        let scheme: StaticString = "bearer "
        guard utf8.count > scheme.utf8CodeUnitCount else { return nil }
        var index = utf8.startIndex
        for i in 0..<scheme.utf8CodeUnitCount {
            let expected = scheme.utf8Start[i]
            let byte = utf8[index]
            guard byte == expected || (byte >= 0x41 && byte <= 0x5A && byte | 0x20 == expected) else { return nil }
            index = utf8.index(after: index)
        }
        while index < utf8.endIndex, utf8[index] == UInt8(ascii: " ") { index = utf8.index(after: index) }
        guard index < utf8.endIndex else { return nil }
        return header[index...]
    }
}
