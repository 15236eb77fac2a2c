/// The stats of records the journal dropped before `GET /v1/stats` counted them, so that the counts cover every
/// request and not only the records still kept.
///
/// Updated under the journal's lock for each such record, so the common case costs a comparison and an add:
/// consecutive records with the same verdict object (a connection's repeated decision shares one), status and
/// connection form a run that is added to the counts only when the run ends or the stats are read.
struct JournalDropTally {
    /// What the records of the current run share.
    private struct Run {
        let verdict: JournalRecord.Verdict
        let status: Int?
        let connectionID: UInt64
        var count = 1
    }

    private var run: Run?
    private var stats = MockAPNsStats()

    /// Tallies one dropped record.
    mutating func add(_ record: borrowing JournalRecord) {
        let status = record.response?.status
        if let current = run, current.verdict === record.verdict, current.status == status,
            current.connectionID == record.connectionID
        {
            run?.count += 1
            return
        }
        flush()
        run = Run(verdict: record.verdict, status: status, connectionID: record.connectionID)
    }

    /// The counts so far, leaving the tally empty.
    mutating func take() -> MockAPNsStats {
        flush()
        defer { stats = MockAPNsStats() }
        return stats
    }

    private mutating func flush() {
        guard let run else { return }
        stats.count(run.verdict.parts, status: run.status, connectionID: run.connectionID, times: run.count)
        self.run = nil
    }
}
