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
        /// At most `maxConnections` TLS connections opened.
        case reusesConnections = "reuses-connections"
        /// No `ExpiredProviderToken`/`TooManyProviderTokenUpdates`, and no provider token used past 60 minutes.
        case tokenRefresh = "token-refresh"
        /// No 4xx that no rule scripted and no expectation names.
        case noUnexpectedErrors = "no-unexpected-errors"
    }

    public var kind: Kind
    /// `backs-off`: the shortest wait before a retry after 429/500/503 (`minimum`, default 1 s).
    public var minimumBackoff: Duration = .seconds(1)
    /// `reuses-connections`: the most TLS connections a run may open (`maxConnections`, default 4).
    public var maxConnections: Int = 4
    /// The line of the entry in the scenario file, for messages; 0 when it came from no file.
    public var line: Int = 0

    public init(_ kind: Kind) {
        self.kind = kind
    }
}
