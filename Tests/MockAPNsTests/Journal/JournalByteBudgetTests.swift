import Foundation
import Testing

@testable import MockAPNs

/// What a record counts against the journal's byte budget.
@Suite("Journal byte budget")
struct JournalByteBudgetTests {
    /// A record with `headerCount` headers of `valueBytes` bytes each and an empty payload.
    static func record(headerCount: Int, valueBytes: Int) -> JournalRecord {
        let headers = (0..<headerCount).map { APNsHeader("x-large-\($0)", String(repeating: "v", count: valueBytes)) }
        return JournalRecord(
            sequence: 0, receivedAt: Date(), answeredAt: Date(), connectionID: 1, remoteAddress: "127.0.0.1:1",
            request: APNsRequest(method: "POST", path: "/3/device/aa", headers: headers),
            verdict: Verdict(
                outcome: .accepted, rule: "test", explanation: "", pushType: "alert", topic: "com.example.app"),
            response: APNsResponse(status: 200, apnsID: "ID"))
    }

    @Test("large headers count their real bytes: a 64 KiB budget keeps four records of 15 KiB of headers")
    func largeHeadersCountTheirBytes() throws {
        let journal = try Journal(capacity: 1000, maxBytes: 64 << 10)
        let record = Self.record(headerCount: 3, valueBytes: 5000)
        // Name, value and 32 per header (RFC 9113 §6.5.2), plus 1 KiB for the rest.
        #expect(record.journalBytes == 3 * (9 + 5000 + 32) + 1024)
        for _ in 0..<20 { journal.append(Self.record(headerCount: 3, valueBytes: 5000)) }
        #expect(journal.bytes <= 64 << 10)
        #expect(journal.count == (64 << 10) / (3 * 5041 + 1024))
        #expect(journal.droppedCount == UInt64(20 - journal.count))
    }

    @Test("small headers count little: the same budget keeps many more records")
    func smallHeaders() throws {
        let journal = try Journal(capacity: 1000, maxBytes: 64 << 10)
        for _ in 0..<40 { journal.append(Self.record(headerCount: 3, valueBytes: 10)) }
        #expect(journal.count == 40)
    }

    @Test("a payload within the limit stays the request's own content; a longer one is cut, counting what is kept")
    func keptContent() {
        let headers = [APNsHeader("apns-topic", "com.example.app")]
        let limit = JournalRecord.keptPayloadLimit
        let small = APNsRequest(
            method: "POST", path: "/3/device/aa", headers: headers, body: Array(repeating: 0x61, count: limit))
        #expect(JournalRecord.kept(small.content) === small.content, "moved into the record, not copied")
        let large = APNsRequest(
            method: "POST", path: "/3/device/aa", headers: headers, body: Array(repeating: 0x61, count: limit + 100))
        let cut = JournalRecord.kept(large.content)
        #expect(cut !== large.content && cut.body.count == limit && cut.receivedBodyBytes == limit + 100)
        #expect(cut.storedBytes == limit + (10 + 15 + 32) && large.content.storedBytes == cut.storedBytes + 100)
        #expect(JournalRecord.kept(cut) === cut, "a cut content is not cut again")
    }
}
