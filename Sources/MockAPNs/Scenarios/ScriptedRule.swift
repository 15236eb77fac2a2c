import Foundation

/// A scripted outcome: requests that match get a chosen answer instead of the validator's.
///
/// Like a WireMock stub: a rule counts the requests that match it, can apply to only the nth of them, and can
/// be limited to a number of uses. The first rule (in file order) that applies decides.
public struct ScriptedRule: Sendable {
    /// A name for records and messages; defaults to `rule <index>`.
    public var name: String
    public var match: RuleMatch
    public var action: RuleAction
    /// Apply only to the nth matching request (1-based), counted by this rule since the last reset.
    public var nth: Int?
    /// Apply at most this many times; `nil` for no limit.
    public var times: Int?
    /// Whether a 200 it answers reaches the simulated phone like any accepted push (`phone: false` keeps it off).
    public var phone = true

    public init(name: String, match: RuleMatch = RuleMatch(), action: RuleAction, nth: Int? = nil, times: Int? = nil) {
        self.name = name
        self.match = match
        self.action = action
        self.nth = nth
        self.times = times
    }
}

/// What a request must look like for a rule to apply. Every field given must match; none given matches all.
public struct RuleMatch: Sendable {
    /// The device token (compared case-insensitively).
    public var token: String?
    /// The `apns-topic` header.
    public var topic: String?
    /// The `apns-push-type` header.
    public var pushType: String?
    /// Header values by lower-case name.
    public var headers: [String: String]
    /// Payload values by dotted path (`aps.alert.title`); a scalar matches its text (`5` matches `"5"` and `5`).
    public var payload: [String: JSONValue]
    /// Value operators (`regex`, `exists`, `oneOf`, `min`/`max`) by the value they test; a value has either a
    /// literal above or a condition here, never both.
    public var conditions: [MatchSubject: MatchCondition] = [:]
    /// What the simulated phone must have done with the push: for `expect:` only. The phone decides after the
    /// APNs answer a rule gives, so the loader refuses it in `rules[].match`, and a rule given one never applies.
    public var device: DeviceCondition?
    /// Tests on the record: what was answered, by which rule, on which connection, words of the payload. The
    /// journal's filters and search text (`JournalQuery`) are these; a request not yet decided passes none, so a
    /// rule given one never applies.
    public var terms: [MatchTerm]
    /// `token: { issuedFrom: … }`: an update token the phone issued in the run, for `expect:` only (the loader
    /// refuses it in `rules[].match`; a rule given one never applies). At most one of it and `token` is set.
    public var issuedToken: IssuedTokenCondition?

    public init(
        token: String? = nil, topic: String? = nil, pushType: String? = nil, headers: [String: String] = [:],
        payload: [String: JSONValue] = [:], terms: [MatchTerm] = []
    ) {
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.headers = headers
        self.payload = payload
        self.terms = terms
    }

    /// Whether the rule needs the payload parsed (kept off the hot path otherwise).
    public var needsPayload: Bool { !payload.isEmpty || conditions.keys.contains(where: \.isPayload) }
}

/// What a scripted rule does with a request it applies to.
public enum RuleAction: Sendable {
    /// Answer with `status` (200 for success) and, for errors, `reason`; 410s carry `timestamp` (now if `nil`).
    case respond(status: Int, reason: String?, timestamp: Date?, delay: Duration?)
    /// Misbehave at the HTTP/2 level, as the real service sometimes does.
    case fault(RuleFault, delay: Duration?)
}

/// A transport-level failure a rule can inject.
public enum RuleFault: String, Sendable, Hashable, CaseIterable {
    /// Never answer the stream (the client must time out).
    case noResponse = "no-response"
    /// RST_STREAM the request with INTERNAL_ERROR.
    case resetStream = "reset-stream"
    /// GOAWAY with `{"reason":"Shutdown"}` after this stream, which is still answered 503 Shutdown.
    case goaway
    /// Close the TCP connection without a word.
    case closeConnection = "close-connection"
}
