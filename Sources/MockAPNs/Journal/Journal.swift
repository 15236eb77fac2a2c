import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Every request the server decided, newest last: bounded in memory, optionally appended to a JSON-lines file.
///
/// Records are appended before their answer is handed to HTTP/2, so a client that has an answer can always find
/// its request here. Thread-safe: every event loop appends.
public final class Journal: Sendable {
    private struct State {
        /// Oldest first; never more than `capacity` records or (but for the newest) `maxBytes` bytes.
        var records: JournalRing
        /// The estimated bytes of the records kept (`JournalRecord.journalBytes`).
        var bytes = 0
        var nextSequence: UInt64 = 1
        var dropped: UInt64 = 0
        var total: UInt64 = 0
        /// Kept with the records so that an append takes one lock and, with no observer, allocates nothing.
        var observers: [Observer] = []
        /// Called under the lock with the record itself, before it is stored.
        var counters: [(id: UInt64, count: @Sendable (borrowing JournalRecord) -> Void)] = []
        /// The newest sequence number the stats reader has counted; records dropped after it are tallied.
        var countedThrough: UInt64 = 0
        /// The dropped records the stats reader has not counted yet, so that the stats cover every request.
        var dropTally = JournalDropTally()

        /// Numbers `record`, writes it to the file, counts it and keeps it. When the journal is full the oldest
        /// record is dropped and swapped into `record`, so that it is released after the lock.
        mutating func keep(_ record: inout JournalRecord, capacity: Int, maxBytes: Int, file: JournalFile?) -> UInt64 {
            let sequence = nextSequence
            record.sequence = sequence
            record.noteSequence(sequence)
            nextSequence += 1
            // `total` counts requests: a phone state change is a record, not a request.
            if record.isDevicePush { total += 1 }
            // Under the lock, so the file's lines keep sequence order across event loops.
            file?.write(record)
            for entry in counters { entry.count(record) }
            bytes += record.journalBytes
            // Full: the oldest record comes back in `record`, dropped.
            if records.append(&record) { noteDropped(record) }
            // Over the byte budget: drop the oldest too (released under the lock; rare), but keep the newest.
            while bytes > maxBytes, records.count > 1, let oldest = records.removeOldest() {
                noteDropped(oldest)
            }
            return sequence
        }

        /// Counts a dropped record: in `dropped`, in the bytes, and in the stats when they have not counted it.
        mutating func noteDropped(_ record: borrowing JournalRecord) {
            dropped += 1
            bytes -= record.journalBytes
            if record.sequence > countedThrough { dropTally.add(record) }
        }
        var nextObserverID: UInt64 = 0
        var clears: UInt64 = 0
    }

    /// An observer and the id that removes it.
    private typealias Observer = (id: UInt64, observer: @Sendable (JournalRecord) -> Void)

    /// The default byte budget: 256 MiB.
    public static let defaultMaxBytes = 256 << 20
    /// The capacities a journal accepts: 1 to 10,000,000 records.
    public static let capacityRange = 1...10_000_000
    /// The byte budgets a journal accepts: 64 KiB to 64 GiB.
    public static let maxBytesRange = (64 << 10)...(64 << 30)

    private let state: NIOLockedValueBox<State>
    private let file: JournalFile?
    /// How many records are kept in memory before the oldest are dropped.
    public let capacity: Int
    /// How many bytes of records are kept in memory before the oldest are dropped (the newest is always kept).
    ///
    /// A record counts its payload as kept, its headers' bytes (name, value and 32 each) and 1 KiB for the rest
    /// (`journalBytes`): an estimate that errs high, since records that repeat a request share its bytes.
    public let maxBytes: Int

    /// A journal keeping `capacity` records and at most `maxBytes` of them, also appending to `filePath`.
    public init(capacity: Int, maxBytes: Int = Journal.defaultMaxBytes, filePath: String? = nil) throws {
        precondition(capacity > 0, "journal capacity must be positive")
        precondition(maxBytes > 0, "journal byte budget must be positive")
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.state = NIOLockedValueBox(State(records: JournalRing(capacity: capacity)))
        self.file = try filePath.map { try JournalFile(path: $0) }
    }

    /// Assigns the next sequence number to `record`, keeps it, writes it to the file, and tells observers.
    /// Returns the sequence number.
    ///
    /// The record is taken, not copied: once the journal is full it is swapped with the oldest record, and
    /// the dropped record is released after the lock. Observers get a copy, after the lock.
    @discardableResult
    public func append(_ record: consuming JournalRecord) -> UInt64 {
        var record = record
        var observed: (observers: [Observer], record: JournalRecord)?
        let sequence = state.withLockedValue { state in
            if !state.observers.isEmpty { observed = (state.observers, record) }
            let sequence = state.keep(&record, capacity: capacity, maxBytes: maxBytes, file: file)
            observed?.record.sequence = sequence
            return sequence
        }
        if let observed {
            for entry in observed.observers { entry.observer(observed.record) }
        }
        return sequence
    }

    /// Appends `records` in order under one lock (a connection's answers to one read), leaving the array empty
    /// with its capacity. The dropped records are released after the lock.
    ///
    /// - Returns: the sequence number of each record whose push reached a Live Activity, with its history entry,
    ///   for `ActivityRegistry.number(_:)`; empty (no allocation) for ordinary pushes.
    @discardableResult
    func append(contentsOf records: inout [JournalRecord]) -> [(entry: ActivityHistoryEntry, sequence: UInt64)] {
        var observed: (observers: [Observer], records: [JournalRecord])?
        var numbered: [(entry: ActivityHistoryEntry, sequence: UInt64)] = []
        state.withLockedValue { state in
            if !state.observers.isEmpty { observed = (state.observers, []) }
            for index in records.indices {
                // Read before `keep`, which may swap a dropped record into this slot.
                let entry = records[index].activityHistoryEntry
                let sequence = state.keep(&records[index], capacity: capacity, maxBytes: maxBytes, file: file)
                if let entry { numbered.append((entry, sequence)) }
                // The newest record, as kept (numbered): observers get copies after the lock.
                if observed != nil, let newest = state.records.newest {
                    observed?.records.append(newest)
                }
            }
        }
        records.removeAll(keepingCapacity: true)
        if let observed {
            for record in observed.records {
                for entry in observed.observers { entry.observer(record) }
            }
        }
        return numbered
    }

    /// The records kept, oldest first.
    public func records() -> [JournalRecord] {
        state.withLockedValue { $0.records.all }
    }

    /// How many records are kept now.
    public var count: Int { state.withLockedValue { $0.records.count } }

    /// How many records were dropped to respect the capacity since the last clear.
    public var droppedCount: UInt64 { state.withLockedValue { $0.dropped } }

    /// How many requests were recorded since the server started (clearing does not reset it).
    public var totalCount: UInt64 { state.withLockedValue { $0.total } }

    /// Forgets the records in memory (the file keeps its lines; sequence numbers go on).
    public func clear() {
        state.withLockedValue { state in
            state.records.removeAll()
            state.bytes = 0
            state.dropped = 0
            state.clears += 1
            state.countedThrough = state.nextSequence - 1
            state.dropTally = JournalDropTally()
        }
    }

    /// How many times the journal was cleared: lets readers that count incrementally notice a clear.
    public var clearCount: UInt64 { state.withLockedValue { $0.clears } }

    /// The records kept whose sequence number is greater than `sequence`, oldest first.
    ///
    /// Copies only those records (walking back from the newest), so readers that remember where they stopped
    /// hold the lock for the new records only, not for the whole journal.
    public func records(after sequence: UInt64) -> [JournalRecord] {
        state.withLockedValue { state in state.records.records(after: sequence) }
    }

    /// The estimated bytes of the records kept now (see `maxBytes`).
    public var bytes: Int { state.withLockedValue { $0.bytes } }

    /// What the stats have not counted yet, taken in one step so that nothing is counted twice or missed: the
    /// kept records after `sequence`, the tally of records dropped before they were counted (turned into counts
    /// by the caller, after the lock), the clear count, and the journal's totals at that same moment.
    /// From then on only records after the newest one returned are tallied when dropped.
    func uncounted(after sequence: UInt64) -> UncountedRecords {
        state.withLockedValue { state in
            let records = state.records.records(after: sequence)
            state.countedThrough = state.nextSequence - 1
            return UncountedRecords(
                records: records, dropTally: state.dropTally.take(), clears: state.clears, kept: state.records.count,
                total: state.total, dropped: state.dropped)
        }
    }

    /// What `uncounted(after:)` returns: read under one lock, so the totals agree with the records.
    struct UncountedRecords {
        /// The kept records not counted yet.
        var records: [JournalRecord]
        /// The records dropped before they were counted.
        var dropTally: JournalDropTally
        /// How many times the journal was cleared.
        var clears: UInt64
        /// How many records are kept.
        var kept: Int
        /// How many requests were recorded since the server started.
        var total: UInt64
        /// How many records were dropped since the last clear.
        var dropped: UInt64
    }

    /// Calls `observer` for every record appended from now on, until the returned id is removed.
    public func addObserver(_ observer: @escaping @Sendable (JournalRecord) -> Void) -> UInt64 {
        state.withLockedValue { state in
            state.nextObserverID += 1
            state.observers.append((state.nextObserverID, observer))
            return state.nextObserverID
        }
    }

    /// Calls `count` for every record appended from now on, under the journal's lock and before the record is
    /// stored, so that it needs no copy: for quick bookkeeping that does not touch the journal (the metrics).
    /// Removed with `removeObserver`.
    func addCounter(_ count: @escaping @Sendable (borrowing JournalRecord) -> Void) -> UInt64 {
        state.withLockedValue { state in
            state.nextObserverID += 1
            state.counters.append((state.nextObserverID, count))
            return state.nextObserverID
        }
    }

    /// Stops calling the observer (or counter) `id`.
    public func removeObserver(_ id: UInt64) {
        state.withLockedValue { state in
            state.observers.removeAll { $0.id == id }
            state.counters.removeAll { $0.id == id }
        }
    }

    /// Writes buffered file lines out.
    public func flush() {
        file?.flush()
    }
}
