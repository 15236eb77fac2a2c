import Foundation
import Testing

@testable import MockAPNs

/// Limits on what the control API takes and keeps: body sizes, alias bombs, the journal's byte budget, cut
/// payloads and stats that count every request. Over real sockets, with curl.
@Suite("Control API limits with curl", .serialized)
struct ControlLimitsTests {
    /// A scenario whose rule's `match.payload` nests `levels` levels of nine aliases each (9^levels values).
    static func aliasBomb(levels: Int) -> String {
        var yaml = "rules:\n  - respond: { status: 200 }\n    match:\n      payload:\n"
        yaml += "        p0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for level in 1..<levels {
            let items = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ",")
            yaml += "        p\(level): &a\(level) [\(items)]\n"
        }
        return yaml
    }

    /// `curl --data-binary @file`: bodies too large for a command-line argument.
    static func send(_ method: String, _ control: MockAPNsControlAPI, _ path: String, bodyBytes: Int) async throws
        -> ControlCurl.Answer
    {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString).yaml")
        try Data(("devices: []\n# " + String(repeating: "x", count: bodyBytes)).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let url = control.url + path
        let (exit, output, errors) = try await Curl.run([
            "-sS", "--http1.1", "--max-time", "15", "-X", method, "-w", "\n%{http_code}", "--data-binary",
            "@\(file.path)", url,
        ])
        return try ControlCurl.Answer(curl: exit, output, errors)
    }

    @Test("a body over 1 MiB gets 413 with a JSON message, on every route that takes one, and changes nothing")
    func oversizedBodies() async throws {
        try await withControlServer { server, control in
            let before = try await server.scenario().document
            for (method, path) in [("PUT", "/v1/scenario"), ("POST", "/v1/devices"), ("POST", "/v1/rules")] {
                let answer = try await Self.send(method, control, path, bodyBytes: 2 << 20)
                #expect(answer.status == 413, "\(method) \(path): \(answer.text)")
                #expect(answer.error?.contains("larger than 1048576 bytes") == true, "\(answer.text)")
            }
            #expect(try await server.scenario().document == before)
            let fits = try await Self.send("PUT", control, "/v1/scenario", bodyBytes: 1000)
            #expect(fits.status == 200, "\(fits.text)")
        }
    }

    @Test("an alias bomb sent to PUT /v1/scenario is refused at once with the line, and changes nothing")
    func aliasBombRefused() async throws {
        try await withControlServer { server, control in
            let before = try await server.scenario().document
            let started = ContinuousClock.now
            let answer = try await ControlCurl.call("PUT", control, "/v1/scenario", body: Self.aliasBomb(levels: 9))
            #expect(ContinuousClock.now - started < .seconds(3))
            #expect(answer.status == 422)
            #expect(answer.error?.contains("expands to more than 100000 values") == true, "\(answer.text)")
            #expect(answer.json?["line"] != nil, "\(answer.text)")
            #expect(answer.text.utf8.count < 4096)
            #expect(try await server.scenario().document == before)
        }
    }

    @Test("with journal capacity 1, five pushes count five in every stats counter")
    func statsCountDroppedRecords() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.journalCapacity = 1
        try await withControlServer(scenario: scenario) { server, control in
            for _ in 0..<3 { try await sendPush(server) }
            // Read the stats between pushes too: records counted once must not be counted again when dropped.
            let middle = try await ControlCurl.call("GET", control, "/v1/stats")
            #expect(middle.json?["accepted"] == 3)
            try await sendPush(server, to: "abc")
            try await sendPush(server, to: "abc")
            let stats = try await ControlCurl.call("GET", control, "/v1/stats")
            #expect(stats.json?["records"] == 1)
            #expect(stats.json?["total"] == 5)
            #expect(stats.json?["dropped"] == 4)
            #expect(stats.json?["accepted"] == 3)
            #expect(stats.json?["rejected"] == 2)
            #expect(stats.json?["byStatus"]?["200"] == 3)
            #expect(stats.json?["byStatus"]?["400"] == 2)
            #expect(stats.json?["byReason"]?["BadDeviceToken"] == 2)
            #expect(stats.json?["byTopic"]?["com.example.app"] == 5)
            #expect(stats.json?["byPushType"]?["alert"] == 5)
            let connections = stats.json?["byConnection"]?.objectMembers?.map(\.1) ?? []
            #expect(connections.reduce(0) { $0 + ($1.doubleValue ?? 0) } == 5)
            #expect(try await ControlCurl.call("DELETE", control, "/v1/requests").status == 200)
            try await sendPush(server)
            try await sendPush(server)
            let cleared = try await ControlCurl.call("GET", control, "/v1/stats")
            #expect(cleared.json?["accepted"] == 2)
            #expect(cleared.json?["byStatus"]?["200"] == 2)
            #expect(cleared.json?["byStatus"]?["400"] == nil)
        }
    }

    @Test("the journal's byte budget drops the oldest records, counted as dropped and still in the stats")
    func byteBudget() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.journalMaxBytes = 64 << 10
        let payload = #"{"aps":{"alert":"\#(String(repeating: "x", count: 3900))"}}"#
        try await withControlServer(scenario: scenario) { server, control in
            for _ in 0..<20 { #expect(try await sendPush(server, body: payload) == 200) }
            #expect(server.journal.bytes <= 64 << 10)
            let stats = try await ControlCurl.call("GET", control, "/v1/stats")
            let records = try #require(stats.json?["records"]?.doubleValue)
            #expect(records >= 8 && records <= 13, "\(stats.text)")
            #expect(stats.json?["dropped"]?.doubleValue == 20 - records)
            #expect(stats.json?["total"] == 20)
            #expect(stats.json?["accepted"] == 20)
            let metrics = try await ControlCurl.call("GET", control, "/metrics")
            #expect(metrics.text.contains("mock_apns_journal_max_bytes 65536"), "\(metrics.text)")
            let list = try await ControlCurl.call("GET", control, "/v1/requests")
            #expect(list.json?["records"]?.arrayValue?.last?["sequence"] == 20)
        }
    }

    @Test("a payload rejected as too large is kept as its first 5120 bytes, marked cut with its size")
    func tooLargePayloadIsCut() async throws {
        let payload = #"{"aps":{"alert":"\#(String(repeating: "y", count: 60_000))"}}"#
        try await withControlServer { server, control in
            #expect(try await sendPush(server, body: payload) == 413)
            #expect(try await sendPush(server) == 200)
            let record = try await ControlCurl.call("GET", control, "/v1/requests/1")
            #expect(record.json?["reason"] == "PayloadTooLarge")
            #expect(record.json?["payloadTruncated"] == true)
            #expect(record.json?["payloadBytes"]?.doubleValue == Double(payload.utf8.count))
            #expect(record.json?["payload"]?.stringValue?.utf8.count == JournalRecord.keptPayloadLimit)
            #expect(server.journal.bytes < 16 << 10)
            let small = try await ControlCurl.call("GET", control, "/v1/requests/2")
            #expect(small.json?["payloadTruncated"] == nil)
            #expect(small.json?["payloadBytes"] == nil)
        }
    }
}
