/// Builds the message of a failed push expectation: what was expected, what was received, the nearest misses.
public struct ExpectationReport: Sendable {
    /// How many received records the message lists at most (the newest).
    public static let receivedLimit = 10

    /// The filters expected to match.
    public var query: JournalQuery
    /// How many pushes were expected (0 for "none").
    public var expectedCount: Int
    /// How long the expectation waited.
    public var timeout: Duration
    /// Whether a `where:` predicate was given.
    public var hasPredicate: Bool
    /// The records that matched the filters and the predicate.
    public var matched: [JournalRecord]
    /// The records that matched the filters.
    public var matchedFilters: [JournalRecord]
    /// The newest records in the journal.
    public var received: [JournalRecord]
    /// How many records the journal holds.
    public var receivedTotal: Int
    /// Records that failed the filters on one field.
    public var nearMisses: [NearMiss]

    /// A report of these facts.
    public init(
        query: JournalQuery, expectedCount: Int, timeout: Duration, hasPredicate: Bool, matched: [JournalRecord],
        matchedFilters: [JournalRecord], received: [JournalRecord], receivedTotal: Int, nearMisses: [NearMiss]
    ) {
        self.query = query
        self.expectedCount = expectedCount
        self.timeout = timeout
        self.hasPredicate = hasPredicate
        self.matched = matched
        self.matchedFilters = matchedFilters
        self.received = received
        self.receivedTotal = receivedTotal
        self.nearMisses = nearMisses
    }

    /// The message, several lines.
    public var message: String {
        var lines: [String] = []
        let what = "\(query.summary)\(hasPredicate ? " and the where: condition" : "")"
        if expectedCount == 0 {
            lines.append("expected no push matching \(what), but \(matched.count) arrived:")
            lines += matched.map { "  \($0.summaryLine)" }
        } else if matched.count > expectedCount {
            lines.append("expected \(expectedCount) push(es) matching \(what), but \(matched.count) arrived:")
            lines += matched.map { "  \($0.summaryLine)" }
        } else {
            lines.append(
                "expected \(expectedCount) push(es) matching \(what) within \(ControlDuration.text(timeout)); "
                    + "\(matched.count) arrived")
            if hasPredicate, matchedFilters.count > matched.count {
                lines.append(
                    "\(matchedFilters.count - matched.count) matched the filters but not the where: condition:")
                lines += matchedFilters.filter { record in !matched.contains { $0.sequence == record.sequence } }
                    .suffix(Self.receivedLimit).map { "  \($0.summaryLine)" }
            }
        }
        if received.isEmpty {
            lines.append("received: nothing (the journal is empty)")
        } else {
            let shown = received.count < receivedTotal ? " (the newest \(received.count) of \(receivedTotal))" : ""
            lines.append("received\(shown):")
            lines += received.map { "  \($0.summaryLine)" }
        }
        if !nearMisses.isEmpty {
            lines.append("nearest misses:")
            lines += nearMisses.map { "  \($0.summary)" }
        }
        return lines.joined(separator: "\n")
    }
}
