import NIOConcurrencyHelpers

/// Counts by status, reason, push type, topic and connection, kept up to date incrementally.
///
/// Counting the whole journal on every `GET /v1/stats` would copy up to 100,000 records under the journal's lock
/// while the APNs loops wait to append. Instead each call counts only the records appended since the previous
/// one, and starts over when the journal was cleared. Records dropped for capacity stay counted: the counts
/// cover every request since the last clear.
final class JournalStatsCounter: Sendable {
    private struct State {
        var clears: UInt64 = 0
        var lastSequence: UInt64 = 0
        var stats = MockAPNsStats()
    }

    private let state = NIOLockedValueBox(State())

    /// The counts now, after counting the records appended since the last call.
    func stats(journal: Journal, metrics: ServerMetrics) -> MockAPNsStats {
        state.withLockedValue { state in
            let clears = journal.clearCount
            if clears != state.clears {
                state = State(clears: clears)
            }
            for record in journal.records(after: state.lastSequence) {
                state.stats.count(record)
                state.lastSequence = record.sequence
            }
            var stats = state.stats
            stats.records = journal.count
            stats.total = journal.totalCount
            stats.dropped = journal.droppedCount
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
        if record.accepted { accepted += 1 } else { rejected += 1 }
        byStatus[record.response.map { String($0.status) } ?? "none", default: 0] += 1
        if let reason = record.reason { byReason[reason, default: 0] += 1 }
        byPushType[record.pushType ?? "none", default: 0] += 1
        byTopic[record.topic ?? "none", default: 0] += 1
        byConnection[String(record.connectionID), default: 0] += 1
    }
}
