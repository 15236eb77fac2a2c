extension Journal {
    /// Follows the records that match `query`: `deliver` gets each one appended from now on, and `replay` holds
    /// those recorded already after `query.since` (none without it; `limit` is ignored), oldest first.
    ///
    /// The observer starts before the snapshot is taken, so no record falls between the two; one appended meanwhile
    /// comes both ways, and a consumer that sends the replay first skips live records at or below its last
    /// sequence. Stop with `removeObserver(observer)`.
    func follow(_ query: JournalQuery, deliver: @escaping @Sendable (JournalRecord) -> Void)
        -> (replay: [JournalRecord], observer: UInt64)
    {
        let matches = query.matcher
        let observer = addObserver { record in
            if matches(record) { deliver(record) }
        }
        var replayQuery = query
        replayQuery.limit = nil
        return (query.since == nil ? [] : records(matching: replayQuery), observer)
    }
}
