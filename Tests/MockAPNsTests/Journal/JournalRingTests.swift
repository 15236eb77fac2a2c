import Testing

@testable import MockAPNs

@Suite("Journal ring")
struct JournalRingTests {
    /// A record numbered `sequence`.
    static func record(_ sequence: UInt64) -> JournalRecord {
        var record = JournalQueryTests.record()
        record.sequence = sequence
        return record
    }

    /// Appends records numbered `range`, returning the sequence numbers that came back as dropped.
    static func append(_ range: ClosedRange<UInt64>, to ring: inout JournalRing) -> [UInt64] {
        var dropped: [UInt64] = []
        for sequence in range {
            var record = record(sequence)
            if ring.append(&record) { dropped.append(record.sequence) }
        }
        return dropped
    }

    @Test("keeps the newest capacity records, handing back each dropped oldest one")
    func wraps() {
        var ring = JournalRing(capacity: 3)
        #expect(Self.append(1...2, to: &ring) == [])
        #expect(ring.all.map(\.sequence) == [1, 2])
        #expect(Self.append(3...7, to: &ring) == [1, 2, 3, 4])
        #expect(ring.all.map(\.sequence) == [5, 6, 7])
        #expect(ring.newest?.sequence == 7)
        #expect(ring.records(after: 5).map(\.sequence) == [6, 7])
        #expect(ring.records(after: 7).isEmpty)
    }

    @Test("slots freed for the byte budget are reused, while growing and once full, never beyond the capacity")
    func removeOldest() {
        var ring = JournalRing(capacity: 4)
        _ = Self.append(1...3, to: &ring)
        #expect(ring.removeOldest()?.sequence == 1)
        #expect(Self.append(4...5, to: &ring) == [])
        #expect(ring.all.map(\.sequence) == [2, 3, 4, 5])
        #expect(ring.removeOldest()?.sequence == 2)
        #expect(ring.removeOldest()?.sequence == 3)
        #expect(ring.count == 2)
        #expect(Self.append(6...7, to: &ring) == [])
        #expect(ring.all.map(\.sequence) == [4, 5, 6, 7])
        #expect(Self.append(8...8, to: &ring) == [4])
        #expect(ring.all.map(\.sequence) == [5, 6, 7, 8])
        while ring.removeOldest() != nil {}
        #expect(ring.count == 0 && ring.newest == nil && ring.all.isEmpty)
        #expect(Self.append(9...14, to: &ring) == [9, 10])
        #expect(ring.all.map(\.sequence) == [11, 12, 13, 14])
    }
}
