/// One entry of a scenario's `checks:`: a named rule of provider behaviour that APNs documents or enforces, with its
/// parameters. Checked after the run against the journal; each failure names the records that broke it.
public struct ProviderCheck: Sendable, Hashable {
    /// The checks there are, by the name a scenario file gives.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No push to a token after it was answered 410 (`Unregistered`/`ExpiredToken`) in this run.
        case stopsAfterUnregistered = "stops-after-unregistered"
        /// The same push is not sent again after a permanent 4xx (`BadDeviceToken`, `BadTopic`, …).
        case noRetryOnPermanentErrors = "no-retry-on-permanent-errors"
        /// A retry after 429/500/503 waits at least `minimumBackoff`.
        case backsOff = "backs-off"
        /// At most `maxConnections` TLS connections carried requests.
        case reusesConnections = "reuses-connections"
        /// No `ExpiredProviderToken`/`TooManyProviderTokenUpdates`, and no provider token used past `maxTokenAge`
        /// (60 minutes).
        case tokenRefresh = "token-refresh"
        /// No 4xx that no rule scripted and no expectation names.
        case noUnexpectedErrors = "no-unexpected-errors"
    }

    public var kind: Kind
    /// `backs-off`: the shortest wait before a retry after 429/500/503 (`minimum`, default 1 s).
    public var minimumBackoff: Duration = .seconds(1)
    /// `reuses-connections`: the most TLS connections that may carry requests in a run (`maxConnections`,
    /// default 4).
    public var maxConnections: Int = 4
    /// `token-refresh`: the oldest a provider token may be when a request uses it (`maxAge`, default 60 minutes,
    /// the age at which APNs answers `ExpiredProviderToken`).
    public var maxTokenAge: Duration = .seconds(3600)
    /// The line of the entry in the scenario file, for messages; 0 when it came from no file.
    public var line: Int = 0

    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// The check with its parameters as given, and the rest at their defaults.
    public init(
        _ kind: Kind, minimumBackoff: Duration = .seconds(1), maxConnections: Int = 4,
        maxTokenAge: Duration = .seconds(3600)
    ) {
        self.kind = kind
        self.minimumBackoff = minimumBackoff
        self.maxConnections = maxConnections
        self.maxTokenAge = maxTokenAge
    }

    /// What `minimum` may be: a millisecond to an hour.
    public static let minimumBackoffRange: ClosedRange<Duration> = .milliseconds(1)...(.seconds(3600))
    /// What `maxConnections` may be: the range of `limits.maxConnections`.
    public static let maxConnectionsRange = ConnectionLimits.maxConnectionsRange
    /// What `maxAge` may be: a second to an hour (APNs refuses a token older than an hour anyway).
    public static let maxTokenAgeRange: ClosedRange<Duration> = .seconds(1)...(.seconds(3600))
}

extension ProviderCheck.Kind {
    /// The parameters the check takes in a scenario file (`- backs-off: { minimum: 2s }`); empty for none.
    public var parameterNames: [String] {
        switch self {
        case .backsOff: ["minimum"]
        case .reusesConnections: ["maxConnections"]
        case .tokenRefresh: ["maxAge"]
        case .stopsAfterUnregistered, .noRetryOnPermanentErrors, .noUnexpectedErrors: []
        }
    }
}
