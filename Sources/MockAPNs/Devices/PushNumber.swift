import Atomics

/// A push's sequence number, known once the journal appends its record: how the phone refers to a push it keeps
/// (the notification a collapse may replace, the background push it holds), since the phone decides before the
/// journal numbers the record. `Journal` fills it in (`JournalRecord.noteSequence(_:)`).
final class PushNumber: Sendable {
    private let value = ManagedAtomic<UInt64>(0)

    /// A number not known yet.
    init() {}

    /// The sequence number; `nil` until the record is appended.
    var sequence: UInt64? {
        let sequence = value.load(ordering: .acquiring)
        return sequence == 0 ? nil : sequence
    }

    /// Sets the sequence number the journal gave the record.
    func set(_ sequence: UInt64) {
        value.store(sequence, ordering: .releasing)
    }
}
