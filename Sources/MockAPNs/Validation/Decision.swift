import Foundation

/// How a request authenticated, as recorded in the journal.
public struct AuthSummary: Sendable, Hashable, Codable {
    /// `token` or `certificate`.
    public var kind: String
    public var teamID: String?
    public var keyID: String?
    /// The token's `iat`, seconds since the epoch.
    public var issuedAt: Int64?
    /// Whether a signature was checked against a known key (false for an unknown key in lenient mode).
    public var verified: Bool
    /// The certificate's topics, for certificate connections.
    public var certificateTopics: [String]?

    public init(
        kind: String, teamID: String? = nil, keyID: String? = nil, issuedAt: Int64? = nil, verified: Bool,
        certificateTopics: [String]? = nil
    ) {
        self.kind = kind
        self.teamID = teamID
        self.keyID = keyID
        self.issuedAt = issuedAt
        self.verified = verified
        self.certificateTopics = certificateTopics
    }
}

/// What the mock decided about one request, and why.
public struct Decision: Sendable {
    /// Accepted, or rejected with a reason.
    public enum Outcome: Sendable, Hashable {
        case accepted
        /// Rejected; `timestamp` is set for 410 answers.
        case rejected(APNsReason, timestamp: Date?)
    }

    public var outcome: Outcome
    /// The rule that decided, e.g. `apns-priority`, `provider-token.expired`, `device.unregistered`, or
    /// `scripted:<rule name>`.
    public var rule: String
    /// A sentence saying why, for records and failing tests.
    public var explanation: String
    /// Remarks on accepted oddities (a string `iat`, a payload that is not JSON, an unverified key).
    public var notes: [String]
    /// How the request authenticated, once that was checked.
    public var auth: AuthSummary?
    /// The push type the request was taken as.
    public var pushType: String?

    public init(
        outcome: Outcome, rule: String, explanation: String, notes: [String] = [], auth: AuthSummary? = nil,
        pushType: String? = nil
    ) {
        self.outcome = outcome
        self.rule = rule
        self.explanation = explanation
        self.notes = notes
        self.auth = auth
        self.pushType = pushType
    }

    /// Whether the push was accepted.
    public var isAccepted: Bool { outcome == .accepted }

    /// The reason of a rejection.
    public var reason: APNsReason? {
        if case .rejected(let reason, _) = outcome { return reason }
        return nil
    }
}
