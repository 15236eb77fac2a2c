import Foundation
import Synchronization
import Testing

@testable import MockAPNs

/// `GET /v1/requests/stream?coalesce=`: the inspector's stream, at most one `page` event per interval whatever the
/// push rate, over real sockets with curl.
@Suite("Coalesced record stream: a few page events a second, with counts and the newest page", .serialized)
struct CoalescedStreamTests {
    /// One `page` event as sent: its id and its JSON.
    struct PageEvent {
        var id: UInt64
        var json: JSONValue

        var newest: UInt64? { json["newest"]?.unsignedValue }
        var matched: UInt64 { json["matched"]?.unsignedValue ?? 0 }
        var sequences: [UInt64] { (json["records"]?.arrayValue ?? []).compactMap { $0["sequence"]?.unsignedValue } }
    }

    /// The `page` events in a stream's text, in order (an event whose data is not JSON fails the test).
    static func pages(_ output: String) throws -> [PageEvent] {
        try output.components(separatedBy: "\n\n").compactMap { block -> PageEvent? in
            let lines = block.split(separator: "\n")
            guard lines.contains("event: page") else { return nil }
            let id = try #require(lines.first { $0.hasPrefix("id: ") }.flatMap { UInt64($0.dropFirst(4)) })
            let data = try #require(lines.first { $0.hasPrefix("data: ") })
            return PageEvent(id: id, json: try JSONParser.parse(String(data.dropFirst(6))))
        }
    }

    /// Streams `path` with curl until its text so far satisfies `until`, or for `seconds` at most, running
    /// `meanwhile` about when the stream opens; answers its text.
    ///
    /// Not a fixed window: in CI's full suite on 2 cores the stream's tasks wait seconds for a thread of the shared
    /// pool (one run saw 1,600 of 2,000 records in 10 s, another no event in 3 s), so a test waits for what it
    /// needs, with a deadline a slow machine does not reach. A test that expects nothing streams to the deadline.
    static func stream(
        _ control: MockAPNsControlAPI, _ path: String, seconds: Int = 60, headers: [String] = [],
        until done: @escaping @Sendable (String) -> Bool = { _ in false },
        meanwhile: () async throws -> Void
    ) async throws -> String {
        let url = control.url + path
        let streaming = Task {
            try await offPool {
                try Subprocess.runUntilBlocking(
                    "/usr/bin/env", ["curl", "-sN"] + headers.flatMap { ["-H", $0] } + [url],
                    timeout: TimeInterval(seconds), until: done)
            }
        }
        try await Task.sleep(for: .milliseconds(400))
        try await meanwhile()
        return try await streaming.value
    }

    /// `until` for `stream`: once the newest `page` event's id is `id`.
    static func untilNewest(_ id: UInt64) -> @Sendable (String) -> Bool {
        { text in (try? pages(text))?.last?.id == id }
    }

    /// `until` for `stream`: once `count` `page` events came.
    static func untilPages(_ count: Int) -> @Sendable (String) -> Bool {
        { text in ((try? pages(text))?.count ?? 0) >= count }
    }

    static func phoneRecord(_ n: Int) -> JournalRecord {
        JournalRecord(kind: .phone, receivedAt: Date(), members: [("phone", .string("p\(n)"))])
    }

    @Test("2,000 records appended in bursts come as a few page events: every record counted, the newest page sent")
    func burstsBecomeAFewEvents() async throws {
        try await withControlServer { server, control in
            let journal = server.journal
            let start = ContinuousClock.now
            let output = try await Self.stream(
                control, "/v1/requests/stream?coalesce=100ms&limit=50&since=0", until: Self.untilNewest(2000)
            ) {
                for burst in 0..<10 {
                    try await offPool { for n in 1...200 { journal.append(Self.phoneRecord(burst * 200 + n)) } }
                    try await Task.sleep(for: .milliseconds(60))
                }
            }
            let elapsed = start.duration(to: .now)
            let pages = try Self.pages(output)
            // At most one event per 100 ms, however fast the records came (the record stream sends 2,000 events).
            let ticks = Int(elapsed / .milliseconds(100)) + 2
            #expect(!pages.isEmpty && pages.count <= ticks, "\(pages.count) events in \(elapsed)")
            #expect(pages.map(\.matched).reduce(0, +) == 2000, "\(pages.map(\.matched))")
            #expect(pages.map(\.id) == pages.compactMap(\.newest))
            #expect(zip(pages, pages.dropFirst()).allSatisfy { $0.id < $1.id })
            let last = try #require(pages.last)
            #expect(last.newest == 2000)
            // Each event carries the newest of its arrivals, oldest first, at most `limit`, consecutive.
            for page in pages {
                let expected = min(page.matched, 50)
                #expect(expected > 0 && page.id >= expected, "event \(page.id) matched \(page.matched)")
                guard expected > 0, page.id >= expected else { continue }
                #expect(page.sequences == Array((page.id - expected + 1)...page.id), "event \(page.id)")
            }
            #expect(last.json["journal"]?["newest"] == 2000 && last.json["journal"]?["held"] == 2000)
        }
    }

    @Test("filters apply: only matching records are counted and sent, and the id still moves past the others")
    func filtersApply() async throws {
        try await withControlServer { server, control in
            // Sent first (each push is a curl, slow on a loaded machine), then counted from since=0 at the first
            // tick: what arrives while the stream is open is the burst test's.
            try await sendPush(server)
            try await sendPush(server, to: "zz")
            try await sendPush(server, to: "yy")
            try await sendPush(server)
            let path = "/v1/requests/stream?coalesce=50ms&view=summary&q=status:4xx&since=0"
            let output = try await Self.stream(control, path, until: Self.untilNewest(4)) {}
            let pages = try Self.pages(output)
            #expect(pages.map(\.matched).reduce(0, +) == 2, "\(output)")
            #expect(pages.flatMap(\.sequences) == [2, 3])
            #expect(pages.last?.id == 4, "the id moves past the records that did not match")
            let records = pages.flatMap { $0.json["records"]?.arrayValue ?? [] }
            #expect(records.allSatisfy { $0["reason"] == "BadDeviceToken" && $0["headers"] == nil })
            #expect(records.allSatisfy { InspectorAPITests.memberNames($0) == InspectorAPITests.summaryMembers })
        }
    }

    @Test("since= or Last-Event-ID resume after a sequence: the first event at once counts what came after it")
    func resumesAfterASequence() async throws {
        try await withControlServer { server, control in
            for n in 1...30 { server.journal.append(Self.phoneRecord(n)) }
            let resumed = try await Self.stream(
                control, "/v1/requests/stream?coalesce=5s&limit=10", headers: ["Last-Event-ID: 12"],
                until: Self.untilPages(1)
            ) {}
            let pages = try Self.pages(resumed)
            #expect(pages.count == 1, "\(resumed)")
            #expect(pages.first?.matched == 18 && pages.first?.sequences == Array(21...30) && pages.first?.id == 30)
            // Without since, only what comes after it connected; a quiet interval sends nothing.
            let fresh = try await Self.stream(control, "/v1/requests/stream?coalesce=50ms", seconds: 10) {}
            #expect(try Self.pages(fresh).isEmpty, "\(fresh)")
            #expect(fresh.hasPrefix(": mock-apns records matching"))
            // Records a clear forgot are not counted as arrived, even from since=0.
            #expect(try await ControlCurl.call("DELETE", control, "/v1/requests").status == 200)
            let cleared = try await Self.stream(
                control, "/v1/requests/stream?coalesce=50ms&since=0", until: Self.untilPages(1)
            ) {
                server.journal.append(Self.phoneRecord(31))
            }
            let afterClear = try Self.pages(cleared)
            #expect(afterClear.map(\.matched) == [1] && afterClear.first?.sequences == [31], "\(cleared)")
        }
    }

    @Test("a coalesced stream follows nothing on the pushes' path: no journal observer while it is open")
    func noObserver() async throws {
        try await withControlServer { server, control in
            let journal = server.journal
            try await sendPush(server)
            // Read once the first event came, so the stream is surely open and has ticked.
            let observers = Mutex<Int?>(nil)
            let output = try await Self.stream(control, "/v1/requests/stream?coalesce=50ms&since=0") { text in
                guard Self.untilPages(1)(text) else { return false }
                observers.withLock { $0 = journal.observerCount }
                return true
            } meanwhile: {}
            #expect(try Self.pages(output).first?.sequences == [1])
            #expect(observers.withLock { $0 } == 0)
        }
    }

    @Test("coalesce= and limit= are range-checked with a sentence that names the range")
    func badIntervals() async throws {
        try await withControlServer { _, control in
            for (path, message) in [
                ("coalesce=10ms", "coalesce must be from 50ms to 10s, got '10ms'"),
                ("coalesce=20s", "coalesce must be from 50ms to 10s, got '20s'"),
                ("coalesce=99999999999999999999999h", "coalesce must be from 50ms to 10s"),
                ("coalesce=soon", "coalesce:"),
                ("coalesce=", "coalesce:"),
                ("coalesce=1s&limit=1001", "limit on a coalesced stream is the records per event, at most 1000"),
                ("coalesce=1s&olderThan=3", "olderThan pages back through GET /v1/requests"),
            ] {
                let answer = try await ControlCurl.call("GET", control, "/v1/requests/stream?\(path)")
                #expect(answer.status == 400, "\(path): \(answer.text)")
                #expect(answer.error?.hasPrefix(message) == true, "\(path): \(answer.text)")
            }
        }
    }
}
