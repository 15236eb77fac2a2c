/// Where one push's entry sits in an activity's history: what the journal's sequence number is written into
/// once the push's record is appended.
///
/// The phone decides in `MockAPNsEngine.decide`, before the journal numbers the record, so the entry starts
/// without a sequence; the record carries this position to the append, and `ActivityRegistry.number(_:)` fills
/// it in. An activity's history only grows, so the position stays valid.
struct ActivityHistoryEntry: Sendable, Hashable {
    /// The activity's id.
    var activityID: String
    /// The entry's index in `LiveActivity.history`.
    var index: Int
}

extension ActivityRegistry {
    /// Writes each record's sequence number into the history entry of its push, under one lock (a connection's
    /// records of one read). An entry of an activity forgotten since (a reset) is skipped.
    func number(_ entries: [(entry: ActivityHistoryEntry, sequence: UInt64)]) {
        withActivities { activities in
            for (entry, sequence) in entries {
                guard let history = activities[entry.activityID]?.history, history.indices.contains(entry.index)
                else { continue }
                activities[entry.activityID]?.history[entry.index].sequence = sequence
            }
        }
    }
}
