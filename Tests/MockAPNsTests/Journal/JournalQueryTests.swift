import Foundation
import Testing

@testable import MockAPNs

/// Queries, near misses, incremental stats and waits over a journal, without sockets.
@Suite("Journal queries")
struct JournalQueryTests {
    static func record(
        token: String = "aa", topic: String = "com.example.app", status: Int = 200, reason: String? = nil
    )
        -> JournalRecord
    {
        JournalRecord(
            sequence: 0, receivedAt: Date(), answeredAt: Date(), connectionID: 1, remoteAddress: "127.0.0.1:1",
            request: APNsRequest(method: "POST", path: "/3/device/\(token)"),
            verdict: Verdict(
                outcome: reason.map { .rejected(APNsReason($0, status: status), timestamp: nil) } ?? .accepted,
                rule: "test", explanation: "", pushType: "alert", topic: topic),
            response: APNsResponse(status: status, apnsID: "ID"))
    }

    @Test("records(after:) copies only newer records, across the ring's wrap-around")
    func recordsAfter() throws {
        let journal = try Journal(capacity: 3)
        for _ in 1...5 { journal.append(Self.record()) }
        #expect(journal.records(after: 3).map(\.sequence) == [4, 5])
        #expect(journal.records(after: 0).map(\.sequence) == [3, 4, 5])
        #expect(journal.records(after: 5).isEmpty)
    }

    @Test("a page (limit, olderThan, since, filters) read newest first in chunks is the newest matches of the whole")
    func pagesMatchTheWholeJournal() throws {
        // Wrapped around (capacity 700 of 1000 appended), some records with another token, a hole from a clear.
        let journal = try Journal(capacity: 700)
        for index in 1...1000 { journal.append(Self.record(token: index % 7 == 0 ? "bb" : "aa")) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var query = JournalQuery(limit: Int.random(in: 1...800, using: &generator))
            if Bool.random(using: &generator) { query.olderThan = UInt64.random(in: 0...1100, using: &generator) }
            if Bool.random(using: &generator) { query.since = UInt64.random(in: 0...1100, using: &generator) }
            if Bool.random(using: &generator) { query.token = "bb" }
            let whole = journal.records().filter(query.matcher)
            let expected = Array(whole.suffix(query.limit ?? 0)).map(\.sequence)
            #expect(journal.records(matching: query).map(\.sequence) == expected, "\(query.parameters)")
        }
        #expect(journal.records(matching: JournalQuery(olderThan: 303, limit: 5)).map(\.sequence) == [301, 302])
        #expect(journal.records(matching: JournalQuery(olderThan: 301, limit: 5)).isEmpty)
        #expect(journal.records(matching: JournalQuery(token: "bb", limit: 2)).map(\.sequence) == [987, 994])
        journal.clear()
        #expect(journal.records(matching: JournalQuery(limit: 5)).isEmpty)
    }

    @Test("stats count incrementally, keep dropped records and start over after a clear")
    func incrementalStats() throws {
        let journal = try Journal(capacity: 2)
        journal.append(Self.record())
        #expect(journal.metrics.stats(of: journal).accepted == 1)
        journal.append(Self.record(status: 410, reason: "Unregistered"))
        journal.append(Self.record(topic: "com.example.other"))
        let stats = journal.metrics.stats(of: journal)
        #expect(stats.records == 2)
        #expect(stats.dropped == 1)
        #expect(stats.accepted == 2)
        #expect(stats.byReason == ["Unregistered": 1])
        #expect(stats.byTopic == ["com.example.app": 2, "com.example.other": 1])
        journal.clear()
        journal.append(Self.record(status: 400, reason: "BadTopic"))
        let cleared = journal.metrics.stats(of: journal)
        #expect(cleared.byStatus == ["400": 1])
        #expect(cleared.total == 4)
    }

    @Test("near misses are records that failed on exactly one field, newest first")
    func nearMisses() throws {
        let journal = try Journal(capacity: 10)
        journal.append(Self.record(token: "bb", topic: "com.example.other"))
        journal.append(Self.record(token: "bb"))
        journal.append(Self.record(topic: "com.example.other"))
        let misses = journal.nearMisses(for: JournalQuery(token: "aa", topic: "com.example.app"))
        #expect(
            misses.map(\.summary) == [
                "#3 differs in topic: expected com.example.app, got com.example.other",
                "#2 differs in token: expected aa, got bb",
            ])
    }

    @Test("a wait resumes when the matching record is appended, and times out with what it found")
    func wait() async throws {
        let journal = try Journal(capacity: 10)
        journal.append(Self.record())
        let waiting = Task {
            await journal.waitForRecords(matching: JournalQuery(token: "aa"), count: 2, timeout: .seconds(60))
        }
        try await Task.sleep(for: .milliseconds(50))
        let appended = ContinuousClock.now
        journal.append(Self.record())
        let result = await waiting.value
        // Far below the 60 s timeout: the observer resumed it. The bound allows for a 2-core machine whose two
        // cooperative threads the attack and process tests keep busy (1.8 s seen there with a 1 s bound).
        #expect(ContinuousClock.now - appended < .seconds(15))
        #expect(result.satisfied)
        #expect(result.records.map(\.sequence) == [1, 2])
        let timedOut = await journal.waitForRecords(
            matching: JournalQuery(token: "cc"), count: 1, timeout: .milliseconds(50))
        #expect(!timedOut.satisfied)
        #expect(timedOut.nearMisses.count == 2)
    }

    @Test("following a query replays the records after since (whatever the limit), then delivers new matches")
    func follow() throws {
        let journal = try Journal(capacity: 10)
        journal.append(Self.record())
        journal.append(Self.record(token: "bb"))
        journal.append(Self.record())
        let delivered = LockedCounter()
        let query = JournalQuery(token: "aa", since: 1, limit: 1)
        let (replay, observer) = journal.follow(query) { _ in delivered.increment() }
        #expect(replay.map(\.sequence) == [3])
        journal.append(Self.record(token: "bb"))
        journal.append(Self.record())
        #expect(delivered.value == 1)
        journal.removeObserver(observer)
        journal.append(Self.record())
        #expect(delivered.value == 1)
        let (none, another) = journal.follow(JournalQuery(token: "aa")) { _ in }
        journal.removeObserver(another)
        #expect(none.isEmpty)
    }

    @Test("query parameters are parsed strictly and written back the same")
    func parameters() throws {
        let (query, extra) = try JournalQuery.parse(
            [("token", "ABAB"), ("status", "410"), ("accepted", "false"), ("since", "3"), ("timeout", "2s")],
            extra: ["timeout"])
        #expect(query == JournalQuery(token: "abab", status: 410, accepted: false, since: 3))
        #expect(extra == ["timeout": "2s"])
        #expect(try JournalQuery.parse(query.parameters).query == query)
        let paged = JournalQuery(olderThan: 9, limit: 2)
        #expect(paged.parameters.map { "\($0.name)=\($0.value)" } == ["olderThan=9", "limit=2"])
        #expect(try JournalQuery.parse(paged.parameters).query == paged)
        #expect(
            throws: InputError(
                "unknown filter 'devices'; the filters are: token, topic, pushType, apnsID, status, reason, accepted, connection, device, warnings, channel, operation, q, since, olderThan, after, before, limit"
            )
        ) {
            try JournalQuery.parse([("devices", "ab")])
        }
        #expect(try ControlDuration.parse("1.5s") == .milliseconds(1500))
        #expect(ControlDuration.text(.milliseconds(250)) == "250ms")
    }
}
