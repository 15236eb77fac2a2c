/// What a wait found: the matching records, whether there were enough, and otherwise the nearest misses.
public struct RecordWaitResult: Sendable {
    /// Whether at least `count` records matched before the timeout.
    public var satisfied: Bool
    /// How many records were waited for.
    public var count: Int
    /// The matching records found, oldest first (more than `count` when more matched).
    public var records: [JournalRecord]
    /// Records that failed the query on exactly one field, newest first; empty when satisfied.
    public var nearMisses: [NearMiss]

    /// A wait's outcome.
    public init(satisfied: Bool, count: Int, records: [JournalRecord], nearMisses: [NearMiss]) {
        self.satisfied = satisfied
        self.count = count
        self.records = records
        self.nearMisses = nearMisses
    }
}
