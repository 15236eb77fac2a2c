/// The journal's records, oldest first, in slots that are reused once `capacity` records are kept.
///
/// A hot-path type (bench/README.md): once full, a new record is swapped into the oldest one's slot, so a push
/// moves records instead of copying them (a `CircularBuffer`'s remove-first-then-append copied each record twice
/// and cost about 0.3 µs a push). Slots freed for the byte budget hold `nil` until a new record fills them.
struct JournalRing {
    /// The slots; the kept records are the `count` slots from `start` on, wrapping at `slots.count`.
    private var slots: [JournalRecord?] = []
    private var start = 0
    /// How many records are kept.
    private(set) var count = 0
    /// How many records are kept before the oldest is dropped for each new one.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        slots.reserveCapacity(min(capacity, 1024))
    }

    /// Keeps `record`. When the ring is full, the oldest record is swapped into `record` (so that the caller
    /// releases it later, outside any lock) and the result is true.
    mutating func append(_ record: inout JournalRecord) -> Bool {
        if count == capacity {
            swap(&slots[start]!, &record)
            start = (start + 1) % slots.count
            return true
        }
        // Growing, the kept records end at the last slot; once every slot exists, the one after the newest is free.
        let index = start + count
        if slots.count < capacity, index == slots.count {
            slots.append(record)
        } else {
            slots[index % slots.count] = record
        }
        count += 1
        return false
    }

    /// Removes and returns the oldest record.
    mutating func removeOldest() -> JournalRecord? {
        guard count > 0, let oldest = slots[start].take() else { return nil }
        start = (start + 1) % slots.count
        count -= 1
        return oldest
    }

    /// The oldest record's sequence number.
    var oldestSequence: UInt64? {
        count == 0 ? nil : slots[start]?.sequence
    }

    /// The newest record.
    var newest: JournalRecord? {
        count == 0 ? nil : slots[(start + count - 1) % slots.count]
    }

    /// Every record, oldest first.
    var all: [JournalRecord] { records(after: 0) }

    /// The records whose sequence number is greater than `sequence`, oldest first (found walking back from the
    /// newest, so a reader that remembers where it stopped copies only the new ones).
    func records(after sequence: UInt64) -> [JournalRecord] {
        var newer = 0
        while newer < count, let record = slots[(start + count - 1 - newer) % slots.count],
            record.sequence > sequence
        {
            newer += 1
        }
        var out: [JournalRecord] = []
        out.reserveCapacity(newer)
        for offset in (count - newer)..<count {
            if let record = slots[(start + offset) % slots.count] { out.append(record) }
        }
        return out
    }

    /// Up to `limit` of the newest records whose sequence number is below `bound` (any, when `nil`) and above
    /// `floor`, oldest first. Found by binary search (the kept records are in sequence order), so a page copies
    /// only its records.
    func records(below bound: UInt64?, above floor: UInt64, limit: Int) -> [JournalRecord] {
        /// The first offset from `start` whose record's sequence number is greater than `value` (or `count`).
        func firstOffset(after value: UInt64) -> Int {
            var low = 0
            var high = count
            while low < high {
                let middle = low + (high - low) / 2
                if (slots[(start + middle) % slots.count]?.sequence ?? 0) > value {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            return low
        }
        guard count > 0, limit > 0 else { return [] }
        let end = bound.map { $0 == 0 ? 0 : firstOffset(after: $0 - 1) } ?? count
        let begin = max(firstOffset(after: floor), end - min(limit, end))
        guard begin < end else { return [] }
        var out: [JournalRecord] = []
        out.reserveCapacity(end - begin)
        for offset in begin..<end {
            if let record = slots[(start + offset) % slots.count] { out.append(record) }
        }
        return out
    }

    /// Forgets every record and the slots' memory.
    mutating func removeAll() {
        self = JournalRing(capacity: capacity)
    }
}
