import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import MockAPNs

@Suite("Journal")
struct JournalTests {
    static func record(_ token: String) -> JournalRecord {
        JournalRecord(
            sequence: 0, receivedAt: Date(timeIntervalSince1970: 1_800_000_000), answeredAt: nil, connectionID: 1,
            remoteAddress: "127.0.0.1:1",
            request: APNsRequest(
                method: "POST", path: "/3/device/\(token)", headers: [APNsHeader("apns-topic", "com.example.app")],
                body: Array(#"{"aps":{}}"#.utf8)),
            verdict: Verdict(
                outcome: .accepted, rule: "accepted", explanation: "", pushType: "alert", topic: "com.example.app"),
            response: .success(apnsID: "A", apnsUniqueID: nil))
    }

    @Test("numbers records in order and keeps the newest when over capacity, counting the dropped")
    func capacity() throws {
        let journal = try Journal(capacity: 3)
        for i in 1...5 { journal.append(Self.record("\(i)")) }
        let records = journal.records()
        #expect(records.map(\.deviceToken) == ["3", "4", "5"])
        #expect(records.map(\.sequence) == [3, 4, 5])
        #expect(journal.droppedCount == 2)
        #expect(journal.totalCount == 5)
        journal.clear()
        #expect(journal.count == 0)
        #expect(journal.append(Self.record("6")) == 6)
    }

    @Test("appends a batch in order under one lock: numbered, capped, observed, counted, and the array emptied")
    func batch() throws {
        let journal = try Journal(capacity: 4)
        let observed = NIOLockedValueBox<[UInt64]>([])
        _ = journal.addObserver { record in observed.withLockedValue { $0.append(record.sequence) } }
        journal.append(Self.record("1"))
        var batch = (2...6).map { Self.record("\($0)") }
        journal.append(contentsOf: &batch)
        #expect(batch.isEmpty)
        #expect(journal.records().map(\.deviceToken) == ["3", "4", "5", "6"])
        #expect(journal.records().map(\.sequence) == [3, 4, 5, 6])
        #expect(journal.droppedCount == 2 && journal.totalCount == 6)
        #expect(observed.withLockedValue { $0 } == [1, 2, 3, 4, 5, 6])
        let stats = journal.metrics.stats(of: journal)
        #expect(stats.accepted == 6 && stats.byConnection == ["1": 6] && stats.records == 4 && stats.dropped == 2)
    }

    @Test("records of one connection share a verdict while it says the same, and only then")
    func sharedVerdicts() {
        var verdict = Verdict(
            outcome: .accepted, rule: "accepted", explanation: "every check passed", pushType: "alert",
            topic: "com.example.app")
        let first = Verdict.Shared.reusing(nil, for: verdict)
        #expect(Verdict.Shared.reusing(first, for: verdict) === first)
        for change in [
            { (v: inout Verdict) in v.outcome = .noAnswer },
            { $0.notes = ["no apns-push-type: taken as alert"] }, { $0.topic = "com.example.other" },
            { $0.auth = AuthSummary(kind: "token", verified: true) },
            { $0.outcome = .rejected(.badPriority, timestamp: nil) },
            { $0.outcome = .rejected(.unregistered, timestamp: Date(timeIntervalSince1970: 1)) },
            { $0.pushType = "background" }, { $0.rule = "apns-priority" },
        ] {
            var changed = verdict
            change(&changed)
            let shared = Verdict.Shared.reusing(first, for: changed)
            #expect(shared !== first)
            #expect(shared.value == changed)
        }
        verdict.explanation = "every check passed"  // equal text in other storage is still the same verdict
        #expect(Verdict.Shared.reusing(first, for: verdict) === first)
    }

    @Test("an auth summary is a value with its fields as Codable keys, equal by content")
    func authSummary() throws {
        let original = AuthSummary(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1, verified: true)
        let other = AuthSummary(kind: "token", teamID: "OTHERTEAM1", keyID: "TESTKEY001", issuedAt: 1, verified: false)
        #expect(original.teamID == "TESTTEAM01" && original.verified)
        #expect(other.teamID == "OTHERTEAM1" && !other.verified && other.keyID == "TESTKEY001")
        #expect(original != other)
        let copy = AuthSummary(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1, verified: true)
        #expect(original == copy && original.hashValue == copy.hashValue)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(original)) as? [String: Any]
        #expect(json?.keys.sorted() == ["issuedAt", "keyID", "kind", "teamID", "verified"])
        #expect(try JSONDecoder().decode(AuthSummary.self, from: JSONEncoder().encode(original)) == original)
    }

    @Test("appends one JSON line per record to the journal file as it happens")
    func file() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withTestServer(journalFile: path) { server in
            for token in [EndToEndTests.device, "xyz"] {
                _ = try await Curl.request(
                    port: server.port, path: "/3/device/\(token)", headers: EndToEndTests.pushHeaders(),
                    body: EndToEndTests.alert)
            }
            server.journal.flush()  // lines are written on the file's own queue
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 2)
            let first = try JSONParser.parse(String(lines[0]))
            let second = try JSONParser.parse(String(lines[1]))
            #expect(first["sequence"] == 1)
            #expect(first["accepted"] == true)
            #expect(first["payloadJSON"]?.value(atPath: "aps.alert.title") == "Order ready")
            #expect(first["response"]?["status"] == 200)
            #expect(second["reason"] == "BadDeviceToken")
            #expect(second["response"]?["body"] == #"{"reason":"BadDeviceToken"}"#)
        }
    }

    @Test("tells observers about every record")
    func observers() throws {
        let journal = try Journal(capacity: 10)
        let seen = LockedCounter()
        let id = journal.addObserver { _ in seen.increment() }
        journal.append(Self.record("1"))
        journal.removeObserver(id)
        journal.append(Self.record("2"))
        #expect(seen.value == 1)
    }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
