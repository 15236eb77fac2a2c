extension Journal {
    /// Waits until `count` records match `query`, or `timeout` passes, or the task is cancelled.
    ///
    /// An observer sees every record as it is appended and resumes the waiter at once, so the answer follows
    /// the matching push by microseconds; records already in the journal count too.
    public func waitForRecords(matching query: JournalQuery, count: Int, timeout: Duration) async -> RecordWaitResult {
        // Found records by sequence number: one that comes both from the observer and the window counts once.
        let waiter = Waiter<[UInt64: JournalRecord]>([:])
        let matches = query.matcher
        @Sendable func offer(_ record: JournalRecord) {
            guard matches(record) else { return }
            waiter.update { found in
                found[record.sequence] = record
                return found.count >= count
            }
        }
        let observer = addObserver { record in offer(record) }
        defer { removeObserver(observer) }
        for record in window(for: query) { offer(record) }
        await waiter.wait(timeout: timeout)
        let found = waiter.found.values.sorted { $0.sequence < $1.sequence }
        let satisfied = found.count >= count
        return RecordWaitResult(
            satisfied: satisfied, count: count, records: found,
            nearMisses: satisfied ? [] : nearMisses(for: query))
    }
}
