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
        /// Kept with the records so that an append takes one lock and, with no observer, allocates nothing.
        var observers: [Observer] = []

        /// Numbers `record`, writes it to the file, counts it in `counts` and keeps it. When the journal is full the
        /// oldest record is dropped and swapped into `record`, so that it is released after the lock.
        mutating func keep(
            _ record: inout JournalRecord, counts: inout ServerMetrics.RequestCounts, capacity: Int, maxBytes: Int,
            file: JournalFile?
        ) -> UInt64 {
            let events = record.followingEvents
            // Read before `keepOne`, which may swap a dropped record into `record`.
            let receivedAt = record.receivedAt
            let sequence = keepOne(&record, counts: &counts, capacity: capacity, maxBytes: maxBytes, file: file)
            // The later events this push gave (rare), and those that waited for it: right after it. Observers get
            // the push, then its events (`keptEvents`).
            if !events.isEmpty || !pendingEvents.isEmpty {
                let newest = observers.isEmpty ? nil : records.newest
                let kept = keepEvents(
                    events, receivedAt: receivedAt, counts: &counts, capacity: capacity, maxBytes: maxBytes,
                    file: file)
                if kept > 0, let newest { keptEvents.insert(newest, at: keptEvents.count - kept) }
            }
            return sequence
        }

        /// Keeps `events` as `device-event` records, observed at `receivedAt`, with those that waited for their
        /// push's record and have it now; an event whose push has no record yet (a state change or a push on
        /// another connection got there first) waits for it, up to `pendingLimit`. Answers how many were kept.
        mutating func keepEvents(
            _ events: [DeviceEvent], receivedAt: Date, counts: inout ServerMetrics.RequestCounts, capacity: Int,
            maxBytes: Int, file: JournalFile?
        ) -> Int {
            var ready: [DeviceEvent] = []
            if !pendingEvents.isEmpty {
                ready = pendingEvents.filter { $0.push.sequence != nil }
                pendingEvents.removeAll { $0.push.sequence != nil }
            }
            for event in events {
                if event.push.sequence == nil, pendingEvents.count < Self.pendingLimit {
                    pendingEvents.append(event)
                } else {
                    ready.append(event)
                }
            }
            for event in ready {
                var eventRecord = JournalRecord(event: event, receivedAt: receivedAt)
                _ = keepOne(&eventRecord, counts: &counts, capacity: capacity, maxBytes: maxBytes, file: file)
                if !observers.isEmpty, let newest = records.newest { keptEvents.append(newest) }
            }
            return ready.count
        }

        /// The most events that wait for their push's record (past it, one is written with `"push": null`).
        static let pendingLimit = 10_000

        /// Numbers `record`, writes it, counts it and keeps it (`keep` without the events that follow it).
        private mutating func keepOne(
            _ record: inout JournalRecord, counts: inout ServerMetrics.RequestCounts, capacity: Int, maxBytes: Int,
            file: JournalFile?
        ) -> UInt64 {
            let sequence = nextSequence
            record.sequence = sequence
            record.noteSequence(sequence)
            nextSequence += 1
            // Under the lock, so the file's lines keep sequence order across event loops.
            file?.write(record)
            counts.count(record)
            bytes += record.journalBytes
            // Full: the oldest record comes back in `record`, dropped.
            if records.append(&record) { noteDropped(record, counts: &counts) }
            // Over the byte budget: drop the oldest too (released under the lock; rare), but keep the newest.
            while bytes > maxBytes, records.count > 1, let oldest = records.removeOldest() {
                noteDropped(oldest, counts: &counts)
            }
            return sequence
        }

        /// Takes a dropped record out of the bytes and counts it dropped (it was counted when appended).
        mutating func noteDropped(_ record: borrowing JournalRecord, counts: inout ServerMetrics.RequestCounts) {
            bytes -= record.journalBytes
            counts.countDropped()
        }
        /// The push `keep` kept and the event records it appended after it, for the observers; empty unless someone
        /// observes and the push had events.
        var keptEvents: [JournalRecord] = []
        /// Events whose push has no record yet, in order.
        var pendingEvents: [DeviceEvent] = []
        var nextObserverID: UInt64 = 0
        var clears: UInt64 = 0
        /// The sequence number given last before the latest clear (0 before any clear).
        var clearedThrough: UInt64 = 0
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
    /// Where every record is counted as it is appended and dropped (the server's metrics, which also count its
    /// connections).
    public let metrics: ServerMetrics

    /// A journal keeping `capacity` records and at most `maxBytes` of them, also appending to `filePath`, and
    /// counting them in `metrics`.
    public init(
        capacity: Int, maxBytes: Int = Journal.defaultMaxBytes, filePath: String? = nil,
        metrics: ServerMetrics = ServerMetrics()
    ) throws {
        precondition(capacity > 0, "journal capacity must be positive")
        precondition(maxBytes > 0, "journal byte budget must be positive")
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.metrics = metrics
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
        var observed: (observers: [Observer], record: JournalRecord, events: [JournalRecord])?
        let sequence = state.withLockedValue { state in
            if !state.observers.isEmpty { observed = (state.observers, record, []) }
            let sequence = metrics.countingRequests { counts in
                state.keep(&record, counts: &counts, capacity: capacity, maxBytes: maxBytes, file: file)
            }
            observed?.record.sequence = sequence
            if !state.keptEvents.isEmpty {
                observed?.events = Array(state.keptEvents.dropFirst())
                state.keptEvents.removeAll()
            }
            return sequence
        }
        if let observed {
            for record in [observed.record] + observed.events {
                for entry in observed.observers { entry.observer(record) }
            }
        }
        return sequence
    }

    /// Appends `events` as `device-event` records observed at `receivedAt` (a phone settled by a state change or a
    /// clock move), in order; an event whose push has no record yet is appended right after it.
    func append(events: [DeviceEvent], receivedAt: Date) {
        guard !events.isEmpty else { return }
        var observed: (observers: [Observer], records: [JournalRecord])?
        state.withLockedValue { state in
            metrics.countingRequests { counts in
                _ = state.keepEvents(
                    events, receivedAt: receivedAt, counts: &counts, capacity: capacity, maxBytes: maxBytes,
                    file: file)
            }
            if !state.observers.isEmpty { observed = (state.observers, state.keptEvents) }
            state.keptEvents.removeAll()
        }
        if let observed {
            for record in observed.records {
                for entry in observed.observers { entry.observer(record) }
            }
        }
    }

    /// Appends `records` in order under one lock (a connection's answers to one read), and counts them with one
    /// taking of the metrics' lock, leaving the array empty with its capacity. The dropped records are released
    /// after the lock.
    ///
    /// - Returns: the sequence number given to the last record (0 for none), and the sequence number of each record
    ///   whose push reached a Live Activity, with its history entry, for `ActivityRegistry.number(_:)`; empty (no
    ///   allocation) for ordinary pushes.
    @discardableResult
    func append(contentsOf records: inout [JournalRecord]) -> (
        last: UInt64, numbered: [(entry: ActivityHistoryEntry, sequence: UInt64)]
    ) {
        var observed: (observers: [Observer], records: [JournalRecord])?
        var numbered: [(entry: ActivityHistoryEntry, sequence: UInt64)] = []
        var last: UInt64 = 0
        state.withLockedValue { state in
            if !state.observers.isEmpty { observed = (state.observers, []) }
            metrics.countingRequests { counts in
                for index in records.indices {
                    // Read before `keep`, which may swap a dropped record into this slot.
                    let entry = records[index].activityHistoryEntry
                    let sequence = state.keep(
                        &records[index], counts: &counts, capacity: capacity, maxBytes: maxBytes, file: file)
                    last = sequence
                    if let entry { numbered.append((entry, sequence)) }
                    // The newest record, as kept (numbered): observers get copies after the lock.
                    if observed != nil, let newest = state.records.newest {
                        if state.keptEvents.isEmpty {
                            observed?.records.append(newest)
                        } else {
                            // The push, then its events (`newest` is the last event).
                            observed?.records.append(contentsOf: state.keptEvents)
                            state.keptEvents.removeAll()
                        }
                    }
                }
            }
        }
        records.removeAll(keepingCapacity: true)
        if let observed {
            for record in observed.records {
                for entry in observed.observers { entry.observer(record) }
            }
        }
        return (last, numbered)
    }

    /// Keeps `record` with the sequence number it has (a record read back from a journal file, before anything
    /// follows the journal: observers are not told); refused (`false`, nothing kept) unless the number is greater
    /// than every one this journal numbered or kept before.
    @discardableResult
    public func append(numbered record: consuming JournalRecord) -> Bool {
        var record = record
        let kept = state.withLockedValue { state in
            guard record.sequence >= state.nextSequence, record.sequence < UInt64.max else { return false }
            // `keep` numbers it with the next number: make that its own (the pushes' path stays as it was).
            state.nextSequence = record.sequence
            _ = metrics.countingRequests { counts in
                state.keep(&record, counts: &counts, capacity: capacity, maxBytes: maxBytes, file: file)
            }
            return true
        }
        return kept
    }

    /// The records kept, oldest first.
    public func records() -> [JournalRecord] {
        state.withLockedValue { $0.records.all }
    }

    /// How many records are kept now.
    public var count: Int { state.withLockedValue { $0.records.count } }

    /// The sequence number given last (0 before any), whether or not its record is still kept, and the last one a
    /// clear forgot (0 before any clear): the records numbered after `clearedThrough` were kept, though the limits
    /// may have dropped some since.
    var numbering: (last: UInt64, clearedThrough: UInt64) {
        state.withLockedValue { ($0.nextSequence - 1, $0.clearedThrough) }
    }

    /// How many records were dropped to respect the capacity since the last clear.
    public var droppedCount: UInt64 { metrics.droppedRecords }

    /// The oldest and newest sequence numbers kept, how many records are kept and how many were dropped since the
    /// last clear, read together (the `journal` member of `GET /v1/requests`).
    public var holdings: JournalHoldings {
        // The journal's lock, then the counts' (the order `keep` takes them in), so that the four agree.
        state.withLockedValue { state in
            metrics.countingRequests { counts in
                JournalHoldings(
                    oldest: state.records.oldestSequence, newest: state.records.newest?.sequence,
                    held: state.records.count, dropped: counts.dropped)
            }
        }
    }

    /// How many requests were recorded since the server started (clearing does not reset it).
    public var totalCount: UInt64 { metrics.recordedRequests }

    /// Forgets the records in memory (the file keeps its lines; sequence numbers go on).
    public func clear() {
        state.withLockedValue { state in
            state.records.removeAll()
            state.bytes = 0
            state.clears += 1
            state.clearedThrough = state.nextSequence - 1
            metrics.countingRequests { $0.clear() }
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

    /// Up to `limit` of the newest records kept whose sequence number is below `bound` (any, when `nil`) and above
    /// `floor`, oldest first: a page, copied alone.
    func records(below bound: UInt64?, above floor: UInt64, limit: Int) -> [JournalRecord] {
        state.withLockedValue { state in state.records.records(below: bound, above: floor, limit: limit) }
    }

    /// The estimated bytes of the records kept now (see `maxBytes`).
    public var bytes: Int { state.withLockedValue { $0.bytes } }

    /// Runs `body` under the journal's lock with the number of records kept and the request counts, which change
    /// only under this lock: what `body` reads agrees (total = accepted + rejected = records + dropped).
    func withRequestCounts<T>(_ body: (_ kept: Int, inout ServerMetrics.RequestCounts) -> T) -> T {
        state.withLockedValue { state in metrics.countingRequests { body(state.records.count, &$0) } }
    }

    /// Calls `observer` for every record appended from now on, until the returned id is removed.
    public func addObserver(_ observer: @escaping @Sendable (JournalRecord) -> Void) -> UInt64 {
        state.withLockedValue { state in
            state.nextObserverID += 1
            state.observers.append((state.nextObserverID, observer))
            return state.nextObserverID
        }
    }

    /// How many observers follow the journal now: each is called, on the pushes' path, for every record.
    var observerCount: Int { state.withLockedValue { $0.observers.count } }

    /// Stops calling the observer `id`.
    public func removeObserver(_ id: UInt64) {
        state.withLockedValue { state in state.observers.removeAll { $0.id == id } }
    }

    /// Writes buffered file lines out.
    public func flush() {
        file?.flush()
    }
}
