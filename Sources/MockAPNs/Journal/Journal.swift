import Foundation
import NIOConcurrencyHelpers

/// Every request the server decided, newest last: bounded in memory, optionally appended to a JSON-lines file.
///
/// Records are appended before their answer is handed to HTTP/2, so a client that has an answer can always find
/// its request here. Thread-safe: every event loop appends.
public final class Journal: Sendable {
    private struct State {
        /// A ring once full: `start` is the oldest.
        var records: [JournalRecord]
        var start = 0
        var count = 0
        var nextSequence: UInt64 = 1
        var dropped: UInt64 = 0
        var total: UInt64 = 0
        /// Kept with the records so that an append takes one lock and, with no observer, allocates nothing.
        var observers: [Observer] = []
        /// Called under the lock with the record itself, before it is stored.
        var counters: [(id: UInt64, count: @Sendable (borrowing JournalRecord) -> Void)] = []

        /// Numbers `record`, writes it to the file, counts it and keeps it: swapped into the oldest record's place
        /// once the ring is full, so that `record` is then the dropped one.
        mutating func keep(_ record: inout JournalRecord, capacity: Int, file: JournalFile?) -> UInt64 {
            let sequence = nextSequence
            record.sequence = sequence
            nextSequence += 1
            total += 1
            // Under the lock, so the file's lines keep sequence order across event loops.
            file?.write(record)
            for entry in counters { entry.count(record) }
            if records.count < capacity {
                records.append(record)
                count += 1
            } else {
                swap(&records[start], &record)
                start = (start + 1) % capacity
                dropped += 1
            }
            return sequence
        }
        var nextObserverID: UInt64 = 0
        var clears: UInt64 = 0
    }

    /// An observer and the id that removes it.
    private typealias Observer = (id: UInt64, observer: @Sendable (JournalRecord) -> Void)

    private let state: NIOLockedValueBox<State>
    private let file: JournalFile?
    /// How many records are kept in memory before the oldest are dropped.
    public let capacity: Int

    /// A journal keeping `capacity` records, also appending to `filePath` when given.
    public init(capacity: Int, filePath: String? = nil) throws {
        precondition(capacity > 0, "journal capacity must be positive")
        self.capacity = capacity
        self.state = NIOLockedValueBox(State(records: []))
        self.file = try filePath.map { try JournalFile(path: $0) }
    }

    /// Assigns the next sequence number to `record`, keeps it, writes it to the file, and tells observers.
    /// Returns the sequence number.
    ///
    /// The record is taken, not copied: once the ring is full it is swapped into the oldest record's place, and
    /// the dropped record is released after the lock. Observers get a copy, after the lock.
    @discardableResult
    public func append(_ record: consuming JournalRecord) -> UInt64 {
        var record = record
        var observed: (observers: [Observer], record: JournalRecord)?
        let sequence = state.withLockedValue { state in
            if !state.observers.isEmpty { observed = (state.observers, record) }
            let sequence = state.keep(&record, capacity: capacity, file: file)
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
    func append(contentsOf records: inout [JournalRecord]) {
        var observed: (observers: [Observer], records: [JournalRecord])?
        state.withLockedValue { state in
            if !state.observers.isEmpty { observed = (state.observers, []) }
            for index in records.indices {
                _ = state.keep(&records[index], capacity: capacity, file: file)
                // The newest record, as kept (numbered): observers get copies after the lock.
                if observed != nil {
                    observed?.records.append(state.records[(state.start + state.count - 1) % state.count])
                }
            }
        }
        records.removeAll(keepingCapacity: true)
        if let observed {
            for record in observed.records {
                for entry in observed.observers { entry.observer(record) }
            }
        }
    }

    /// The records kept, oldest first.
    public func records() -> [JournalRecord] {
        state.withLockedValue { state in
            var out: [JournalRecord] = []
            out.reserveCapacity(state.count)
            for i in 0..<state.records.count {
                out.append(state.records[(state.start + i) % state.records.count])
            }
            return out
        }
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
            state.records = []
            state.start = 0
            state.count = 0
            state.dropped = 0
            state.clears += 1
        }
    }

    /// How many times the journal was cleared: lets readers that count incrementally notice a clear.
    public var clearCount: UInt64 { state.withLockedValue { $0.clears } }

    /// The records kept whose sequence number is greater than `sequence`, oldest first.
    ///
    /// Copies only those records (walking back from the newest), so readers that remember where they stopped
    /// hold the lock for the new records only, not for the whole journal.
    public func records(after sequence: UInt64) -> [JournalRecord] {
        state.withLockedValue { state in
            let count = state.records.count
            var newer = 0
            while newer < count, state.records[(state.start + count - 1 - newer) % count].sequence > sequence {
                newer += 1
            }
            var out: [JournalRecord] = []
            out.reserveCapacity(newer)
            for i in (count - newer)..<count {
                out.append(state.records[(state.start + i) % count])
            }
            return out
        }
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
