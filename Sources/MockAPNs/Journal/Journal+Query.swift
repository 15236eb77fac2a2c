extension Journal {
    /// How many near misses a wait or an assertion reports at most.
    public static let nearMissLimit = 5

    /// The records matching `query`, oldest first; with a `limit`, the newest that many.
    public func records(matching query: JournalQuery) -> [JournalRecord] {
        let matching = window(for: query).filter(query.matcher)
        guard let limit = query.limit, matching.count > limit else { return matching }
        return Array(matching.suffix(limit))
    }

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
