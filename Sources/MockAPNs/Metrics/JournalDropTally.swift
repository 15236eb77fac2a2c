/// The stats of records the journal dropped before `GET /v1/stats` counted them, so that the counts cover every
/// request and not only the records still kept.
///
/// Updated under the journal's lock for each such record, without allocating in the steady state: consecutive
/// records with the same verdict object (a connection's repeated decision shares one), status and connection
/// form a run, and a run that ends is appended to an array that keeps its capacity. The runs become counts (with
/// their string keys) only when the stats reader takes the tally, outside the journal's lock, or when more than
/// `foldThreshold` runs pile up with no reader.
struct JournalDropTally: Sendable {
    /// What the records of one run share, and how many they are.
    private struct Run: Sendable {
        let verdict: Verdict.Shared
        let status: Int?
        let connectionID: UInt64
        var count = 1
    }

    /// What runs are merged by when folded.
    private struct Key: Hashable {
        let verdict: ObjectIdentifier
        let status: Int?
        let connectionID: UInt64
    }

    /// How many runs are kept before they are folded into counts (about 100 KiB of runs).
    static let foldThreshold = 4096

    private var runs: [Run] = []
    private var stats = MockAPNsStats()

    /// Tallies one dropped record.
    mutating func add(_ record: borrowing JournalRecord) {
        guard record.isDevicePush else { return }
        let status = record.response?.status
        if let last = runs.indices.last, runs[last].verdict === record.sharedVerdict, runs[last].status == status,
            runs[last].connectionID == record.connectionID
        {
            runs[last].count += 1
            return
        }
        if runs.count >= Self.foldThreshold { fold() }
        runs.append(Run(verdict: record.sharedVerdict, status: status, connectionID: record.connectionID))
    }

    /// The tally so far, leaving this one empty: its runs are turned into counts by `counts`, after the lock.
    mutating func take() -> JournalDropTally {
        defer { self = JournalDropTally() }
        return self
    }

    /// The counts of every record tallied.
    var counts: MockAPNsStats {
        var tally = self
        tally.fold()
        return tally.stats
    }

    /// Adds the runs to the counts, once per distinct verdict, status and connection, and empties the runs.
    private mutating func fold() {
        guard !runs.isEmpty else { return }
        var merged: [Key: Run] = [:]
        for run in runs {
            let key = Key(verdict: ObjectIdentifier(run.verdict), status: run.status, connectionID: run.connectionID)
            if merged[key] == nil {
                merged[key] = run
            } else {
                merged[key]!.count += run.count
            }
        }
        for run in merged.values {
            stats.count(run.verdict.value, status: run.status, connectionID: run.connectionID, times: run.count)
        }
        runs.removeAll(keepingCapacity: true)
    }
}
