import Foundation

extension ServerMetrics {
    /// The request counts: kept by the journal under its lock as it appends, drops and clears records, and read by
    /// `stats(of:)` (counts since the last clear) and `prometheusText(journal:)` (counts and latencies since start).
    ///
    /// An append hashes nothing and, in the steady state, allocates nothing: consecutive records with the same
    /// verdict object (a connection's repeated decision shares one), status and connection form a run, and a run
    /// that ends is appended to an array that keeps its capacity. The runs become counts by name (status, reason,
    /// push type, topic, connection) when a reader asks, or when more than `foldThreshold` runs pile up with none.
    struct RequestCounts {
        /// What the records of one run share, and how many they are.
        private struct Run {
            let verdict: Verdict.Shared
            let status: Int?
            let connectionID: UInt64
            var count = 1
        }

        /// What runs are merged by when folded.
        private struct RunKey: Hashable {
            let verdict: ObjectIdentifier
            let status: Int?
            let connectionID: UInt64
        }

        /// What `/metrics` counts answers by.
        private struct AnswerKey: Hashable {
            let status: Int?
            let reason: String?
        }

        /// How many runs are kept before they are folded into counts (about 100 KiB of runs).
        static let foldThreshold = 4096
        /// The upper bounds of the latency buckets, in seconds.
        static let latencyBuckets: [Double] = [
            0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5,
        ]

        /// Where a latency ends when the record does not say (no answer, or one stamped at its arrival's time).
        private let clock: any APNsClock
        /// Requests recorded since start (a clear does not reset it).
        private(set) var total: UInt64 = 0
        /// Records dropped for the capacity or the byte budget since the last clear.
        private(set) var dropped: UInt64 = 0
        private var runs: [Run] = []
        /// The runs folded since the last clear, by name: what `/v1/stats` answers.
        private var sinceClear = MockAPNsStats()
        /// The runs folded since start, by status and reason: `/metrics`'s `mock_apns_requests_total`.
        private var answers: [AnswerKey: UInt64] = [:]
        /// Requests by the latency bucket they fell in, since start (`latencyBuckets`; +Inf is `latencyCount`).
        private(set) var latencyBucketCounts = [UInt64](repeating: 0, count: latencyBuckets.count)
        /// Requests measured since start.
        private(set) var latencyCount: UInt64 = 0
        /// Their latencies added up, in seconds.
        private(set) var latencySum: Double = 0

        init(clock: any APNsClock) {
            self.clock = clock
        }

        /// Counts one record as it is appended.
        ///
        /// Its latency is the time from its arrival to its answer, on the server's clock: the decision plus any
        /// scripted delay. A record is appended just before its answer is sent, so only an answer stamped later
        /// than the arrival ends it; otherwise it ends now.
        mutating func count(_ record: borrowing JournalRecord) {
            // Only device pushes are requests: a phone state change is a record of another kind.
            guard record.isDevicePush else { return }
            total += 1
            let status = record.response?.status
            if let last = runs.indices.last, runs[last].verdict === record.sharedVerdict, runs[last].status == status,
                runs[last].connectionID == record.connectionID
            {
                runs[last].count += 1
            } else {
                if runs.count >= Self.foldThreshold { fold() }
                runs.append(Run(verdict: record.sharedVerdict, status: status, connectionID: record.connectionID))
            }
            let end = record.answeredAt.flatMap { $0 == record.receivedAt ? nil : $0 } ?? clock.now()
            let measured = max(0, end.timeIntervalSince(record.receivedAt))
            latencyCount += 1
            latencySum += measured
            if let index = Self.latencyBuckets.firstIndex(where: { measured <= $0 }) {
                latencyBucketCounts[index] += 1
            }
        }

        /// Counts a record the journal dropped (it was counted when appended).
        mutating func countDropped() {
            dropped += 1
        }

        /// Starts the counts since the last clear over; the counts since start keep every record.
        mutating func clear() {
            fold()
            sinceClear = MockAPNsStats()
            dropped = 0
        }

        /// The counts since the last clear, with `recordsKept` (read with them) and the totals.
        mutating func stats(recordsKept: Int) -> MockAPNsStats {
            fold()
            var stats = sinceClear
            stats.records = recordsKept
            stats.total = total
            stats.dropped = dropped
            return stats
        }

        /// Answers since start by status (`none` for no answer) and reason (empty for none), sorted by both.
        mutating func answerCounts() -> [(status: String, reason: String, count: UInt64)] {
            fold()
            return answers.map { answer, count in
                (status: answer.status.map(String.init) ?? "none", reason: answer.reason ?? "", count: count)
            }
            .sorted { ($0.status, $0.reason) < ($1.status, $1.reason) }
        }

        /// Adds the runs to the counts, once per distinct verdict, status and connection, and empties the runs.
        private mutating func fold() {
            guard !runs.isEmpty else { return }
            var merged: [RunKey: Run] = [:]
            for run in runs {
                let key = RunKey(
                    verdict: ObjectIdentifier(run.verdict), status: run.status, connectionID: run.connectionID)
                if merged[key] == nil {
                    merged[key] = run
                } else {
                    merged[key]!.count += run.count
                }
            }
            for run in merged.values {
                sinceClear.count(
                    run.verdict.value, status: run.status, connectionID: run.connectionID, times: run.count)
                answers[AnswerKey(status: run.status, reason: run.verdict.reasonName), default: 0] += UInt64(run.count)
            }
            runs.removeAll(keepingCapacity: true)
        }
    }
}

extension MockAPNsStats {
    /// Adds `times` records decided as `verdict`, answered `status`, on connection `connectionID`.
    fileprivate mutating func count(_ verdict: Verdict, status: Int?, connectionID: UInt64, times: Int) {
        if verdict.isAccepted { accepted += times } else { rejected += times }
        byStatus[status.map { String($0) } ?? "none", default: 0] += times
        if let reason = verdict.reason { byReason[reason.name, default: 0] += times }
        byPushType[verdict.pushType ?? "none", default: 0] += times
        byTopic[verdict.topic ?? "none", default: 0] += times
        // A replay came on no connection (0): counted in the rest, under no connection.
        if connectionID != 0 { byConnection[String(connectionID), default: 0] += times }
    }
}
