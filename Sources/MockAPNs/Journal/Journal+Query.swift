extension Journal {
    /// How many near misses a wait or an assertion reports at most.
    public static let nearMissLimit = 5

    /// The records matching `query`, oldest first; with a `limit`, the newest that many.
    ///
    /// With a `limit` the records are read newest first, a chunk at a time (each chunk copied under the lock and
    /// tested outside it), until the page is full: the newest page of a full journal, or the page before
    /// `olderThan`, copies about its own records instead of the whole journal.
    public func records(matching query: JournalQuery) -> [JournalRecord] {
        guard let limit = query.limit else { return window(for: query).filter(query.matcher) }
        let matches = query.matcher
        var found: [JournalRecord] = []
        var bound = query.olderThan
        var chunk = max(limit, Self.firstChunk)
        while found.count < limit {
            let records = self.records(below: bound, above: query.since ?? 0, limit: chunk)
            guard let oldest = records.first else { break }
            for record in records.reversed() where matches(record) {
                found.append(record)
                if found.count == limit { break }
            }
            bound = oldest.sequence
            chunk = min(chunk * 2, Self.largestChunk)
        }
        return found.reversed()
    }

    /// The records a page read copies first; each next chunk is twice as many, up to `largestChunk`.
    static let firstChunk = 256
    /// The most records a page read copies under the lock at once.
    static let largestChunk = 16_384

    /// Records after `query.since` that fail the query on exactly one field, newest first.
    public func nearMisses(for query: JournalQuery, limit: Int = Journal.nearMissLimit) -> [NearMiss] {
        var misses: [NearMiss] = []
        for record in window(for: query).reversed() {
            if let since = query.since, record.sequence <= since { break }
            if let olderThan = query.olderThan, record.sequence >= olderThan { continue }
            guard query.isInTimeWindow(record) else { continue }
            let failed = query.mismatches(record)
            guard failed.count == 1, let field = failed.first, let expected = query.expected(field) else { continue }
            misses.append(
                NearMiss(record: record, field: field, expected: expected, actual: query.actualText(field, in: record)))
            if misses.count == limit { break }
        }
        return misses
    }

    /// The records a query can match: those after `since` when it is given (copied alone), else all.
    func window(for query: JournalQuery) -> [JournalRecord] {
        query.since.map { records(after: $0) } ?? records()
    }
}
