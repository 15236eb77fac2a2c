import NIOConcurrencyHelpers

/// Counts by status, reason, push type, topic and connection, kept up to date incrementally.
///
/// Counting the whole journal on every `GET /v1/stats` would copy up to 100,000 records under the journal's lock
/// while the APNs loops wait to append. Instead each call counts only the records appended since the previous
/// one, and starts over when the journal was cleared. Records the journal dropped (for its capacity or byte
/// budget) before they were counted come from its drop tally: the counts cover every request since the last clear.
final class JournalStatsCounter: Sendable {
    private struct State {
        var clears: UInt64 = 0
        var lastSequence: UInt64 = 0
        var stats = MockAPNsStats()
    }

    private let state = NIOLockedValueBox(State())

    /// The counts now, after counting the records appended since the last call and those dropped meanwhile.
    func stats(journal: Journal, metrics: ServerMetrics) -> MockAPNsStats {
        state.withLockedValue { state in
            let uncounted = journal.uncounted(after: state.lastSequence)
            if uncounted.clears != state.clears {
                // Everything returned is from after the clear: start the counts over from it.
                state = State(clears: uncounted.clears, lastSequence: state.lastSequence)
            }
            for record in uncounted.records {
                state.stats.count(record)
                state.lastSequence = record.sequence
            }
            state.stats.add(uncounted.dropTally.counts)
            var stats = state.stats
            // Read with the records, under the journal's one lock: total = accepted + rejected even under load.
            stats.records = uncounted.kept
            stats.total = uncounted.total
            stats.dropped = uncounted.dropped
            stats.openConnections = metrics.openConnections
            stats.totalConnections = metrics.totalConnections
            stats.controlFramesSent = metrics.controlFramesSent
            return stats
        }
    }
}

extension MockAPNsStats {
    /// Adds `record` to the counts.
    mutating func count(_ record: JournalRecord) {
        guard record.isDevicePush else { return }
        count(record.sharedVerdict.value, status: record.response?.status, connectionID: record.connectionID, times: 1)
    }

    /// Adds `times` records decided as `verdict`, answered `status`, on connection `connectionID`.
    mutating func count(_ verdict: Verdict, status: Int?, connectionID: UInt64, times: Int) {
        if verdict.isAccepted { accepted += times } else { rejected += times }
        byStatus[status.map { String($0) } ?? "none", default: 0] += times
        if let reason = verdict.reason { byReason[reason.name, default: 0] += times }
        byPushType[verdict.pushType ?? "none", default: 0] += times
        byTopic[verdict.topic ?? "none", default: 0] += times
        byConnection[String(connectionID), default: 0] += times
    }

    /// Adds the counts of `other` (not its totals, which the journal keeps).
    mutating func add(_ other: MockAPNsStats) {
        accepted += other.accepted
        rejected += other.rejected
        byStatus.merge(other.byStatus, uniquingKeysWith: +)
        byReason.merge(other.byReason, uniquingKeysWith: +)
        byPushType.merge(other.byPushType, uniquingKeysWith: +)
        byTopic.merge(other.byTopic, uniquingKeysWith: +)
        byConnection.merge(other.byConnection, uniquingKeysWith: +)
    }
}
