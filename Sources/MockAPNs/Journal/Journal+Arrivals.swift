extension Journal {
    /// The records numbered after `sequence` up to `newest` that match `query`: how many matched, and the newest
    /// `limit` of them, oldest first. What a coalescing stream sends per tick (`GET /v1/requests/stream?coalesce=`).
    ///
    /// Its cost is the tick's, not the pushes': with no filter the count is the difference of the sequence numbers
    /// (records the journal's limits dropped meanwhile included, those a clear forgot, numbered up to
    /// `clearedThrough`, not) and only the page is copied; with a filter the new records are copied and tested in
    /// chunks, none of it on the event loops that appended them (records dropped before the tick cannot be tested,
    /// and are not counted). `query`'s window (`since`, `olderThan`, `limit`) is not used.
    func arrivals(
        matching query: JournalQuery, after sequence: UInt64, through newest: UInt64, clearedThrough: UInt64 = 0,
        limit: Int
    ) -> (matched: UInt64, records: [JournalRecord]) {
        guard newest > sequence, limit > 0 else { return (0, []) }
        // `newest` is a kept record's number, below `UInt64.max` (`append(numbered:)` refuses that one).
        let bound = newest == .max ? nil : newest + 1
        guard query.filtersRecords else {
            let kept = max(sequence, clearedThrough)
            let matched = newest > kept ? newest - kept : 0
            return (matched, records(below: bound, above: sequence, limit: limit))
        }
        var window = query
        window.since = nil
        window.olderThan = nil
        let matches = window.matcher
        var matched: UInt64 = 0
        var found: [JournalRecord] = []
        var below = bound
        var chunk = Self.firstChunk
        while true {
            let records = self.records(below: below, above: sequence, limit: chunk)
            guard let oldest = records.first else { break }
            for record in records.reversed() where matches(record) {
                matched += 1
                if found.count < limit { found.append(record) }
            }
            below = oldest.sequence
            chunk = min(chunk * 2, Self.largestChunk)
        }
        return (matched, found.reversed())
    }
}

extension JournalQuery {
    /// Whether some record can fail the query's fields or time window (`since`, `olderThan` and `limit` aside).
    var filtersRecords: Bool {
        after != nil || before != nil || Field.allCases.contains { expected($0) != nil }
    }
}
