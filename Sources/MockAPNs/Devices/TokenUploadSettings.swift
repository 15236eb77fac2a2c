/// Where and how the simulated app uploads each new update token: a scenario's `tokenUpload:` section.
///
/// "Tokens: push-to-start and update tokens rotate; APNs never tells the provider — the app uploads new ones to the
/// provider's own server" (live-activities.md §2, doc). A provider test needs that step, so the mock plays the app:
/// it POSTs every token the phone issues to `url` (issue 12, "The app's side: token upload").
public struct TokenUploadSettings: Sendable, Hashable {
    /// The provider's endpoint, `http://` or `https://`, as the scenario writes it.
    public var url: String
    /// Extra request headers (an auth header the provider's server wants), by name.
    public var headers: [String: String]
    /// How many times one upload is tried before it is recorded as failed (the first try included).
    public var attempts: Int
    /// How long one try may take, connection and whole answer included.
    public var timeout: Duration

    /// 3 tries: enough to ride out a restart of the provider's server, few enough to fail a run quickly.
    public static let defaultAttempts = 3
    /// 5 s per try: a token endpoint answers in milliseconds; a stuck one should not hold the run for long.
    public static let defaultTimeout = Duration.seconds(5)
    /// The values `attempts` may take.
    public static let attemptsRange = 1...10
    /// The values `timeout` may take.
    public static let timeoutRange = Duration.milliseconds(10)...Duration.seconds(120)
    /// The header names the mock sets itself: the body is always JSON of the length it has.
    static let reservedHeaders: Set<String> = ["content-type", "content-length", "transfer-encoding", "host"]

    /// Uploads to `url` with the default tries and timeout.
    public init(
        url: String, headers: [String: String] = [:], attempts: Int = Self.defaultAttempts,
        timeout: Duration = Self.defaultTimeout
    ) {
        self.url = url
        self.headers = headers
        self.attempts = attempts
        self.timeout = timeout
    }

    /// The pause before try `attempt + 1` after try `attempt` failed: 0.2 s, 0.4 s, 0.8 s … at most 2 s. Real time,
    /// like a scripted `delay`: it models the app's network, not the phone's clock.
    static func backoff(after attempt: Int) -> Duration {
        .milliseconds(min(200 << min(max(attempt - 1, 0), 8), 2000))
    }

    /// The longest one upload can take: every try timing out, with the pauses between them.
    var worstCase: Duration {
        var total = timeout * attempts
        for attempt in 1..<max(attempts, 1) { total += Self.backoff(after: attempt) }
        return total
    }

    /// The section as a scenario file writes it, so `GET /v1/scenario` → `PUT /v1/scenario` keeps it; the headers
    /// sorted by name.
    public var scenarioJSON: JSONValue {
        var members: [(String, JSONValue)] = [("url", .string(url))]
        if !headers.isEmpty {
            members.append(("headers", .object(headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        members.append(("attempts", .number(String(attempts))))
        members.append(("timeout", .string(ScriptedRule.durationText(timeout))))
        return .object(members)
    }
}
