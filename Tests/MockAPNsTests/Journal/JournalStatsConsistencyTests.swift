import Foundation
import Testing

@testable import MockAPNs

/// `GET /v1/stats`'s counts while records are appended and dropped, without sockets.
@Suite("Journal stats consistency")
struct JournalStatsConsistencyTests {
    @Test("under concurrent appends every read has total = accepted + rejected = records + dropped")
    func totalsAgreeUnderLoad() throws {
        let journal = try Journal(capacity: 50)
        let writers = 4
        let perWriter = 20_000
        let group = DispatchGroup()
        for writer in 0..<writers {
            DispatchQueue.global().async(group: group) {
                for index in 0..<perWriter {
                    let status = (index + writer) % 3 == 0 ? 410 : 200
                    journal.append(JournalQueryTests.record(status: status, reason: status == 200 ? nil : "x"))
                }
            }
        }
        var reads = 0
        var disagreements: [String] = []
        repeat {
            let stats = journal.metrics.stats(of: journal)
            reads += 1
            let counted = UInt64(stats.accepted + stats.rejected)
            if counted != stats.total || UInt64(stats.records) + stats.dropped != stats.total {
                disagreements.append(
                    "total \(stats.total) counted \(counted) records \(stats.records) dropped \(stats.dropped)")
            }
        } while group.wait(timeout: .now()) == .timedOut
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3)) in \(disagreements.count) of \(reads) reads")
        let final = journal.metrics.stats(of: journal)
        #expect(final.total == UInt64(writers * perWriter))
        #expect(final.accepted + final.rejected == writers * perWriter)
    }

    @Test("more runs than are kept before folding: every record counted, the dropped too, by status and reason")
    func manyRunsFold() throws {
        let journal = try Journal(capacity: 1)
        let count = ServerMetrics.RequestCounts.foldThreshold * 2 + 7
        for index in 0..<count {
            journal.append(
                index.isMultiple(of: 2)
                    ? JournalQueryTests.record() : JournalQueryTests.record(status: 410, reason: "Unregistered"))
        }
        let stats = journal.metrics.stats(of: journal)
        #expect(stats.total == UInt64(count))
        #expect(stats.dropped == UInt64(count - 1))
        #expect(stats.byStatus == ["200": count / 2 + 1, "410": count / 2])
        #expect(stats.byReason == ["Unregistered": count / 2])
        #expect(stats.byConnection == ["1": count])
    }
}
