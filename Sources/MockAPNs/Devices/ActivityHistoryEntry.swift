/// Where one push's entry sits in an activity's history: what the journal's sequence number is written into
/// once the push's record is appended.
///
/// The phone decides in `MockAPNsEngine.decide`, before the journal numbers the record, so the entry starts
/// without a sequence; the record carries this position to the append, and `ActivityRegistry.number(_:)` fills
/// it in. The position counts from the activity's first push, so it stays valid when the oldest are dropped.
struct ActivityHistoryEntry: Sendable, Hashable {
    /// The activity's id.
    var activityID: String
    /// The entry's position among every push the activity got (`LiveActivity.record(_:)`).
    var index: Int
}

extension ActivityRegistry {
    /// Writes each record's sequence number into the history entry of its push, under one lock (a connection's
    /// records of one read). An entry of an activity forgotten since (a reset) is skipped.
    func number(_ entries: [(entry: ActivityHistoryEntry, sequence: UInt64)]) {
        withActivities { activities in
            for (entry, sequence) in entries {
                guard let dropped = activities[entry.activityID]?.historyDropped else { continue }
                let index = entry.index - dropped
                guard activities[entry.activityID]?.history.indices.contains(index) == true else { continue }
                activities[entry.activityID]?.history[index].sequence = sequence
            }
        }
    }
}
