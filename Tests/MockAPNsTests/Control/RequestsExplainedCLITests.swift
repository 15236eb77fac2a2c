import Foundation
import Testing

@testable import MockAPNs

/// `mock-apns requests` says why (issue 20, item 5): the why under rejected rows, a marker for rows with notes,
/// CONTENT cut, and `requests SEQ` explaining one record in words; run as a person runs it, against a real
/// control API, the pushes sent with curl over HTTP/2.
@Suite("mock-apns requests explains", .serialized)
struct RequestsExplainedCLITests {
    /// An alert whose payload is `size` bytes: over 4096, a 413 PayloadTooLarge.
    static func alert(bytes size: Int) -> String {
        let head = #"{"aps":{"alert":{"title":"Big","body":""#
        let tail = #""}}}"#
        let room = size - head.utf8.count - tail.utf8.count
        return head + String(repeating: "é", count: room / 2) + String(repeating: "x", count: room % 2) + tail
    }

    /// Sends an alert without `apns-push-type`: accepted, with the note `no apns-push-type: taken as alert`.
    static func pushWithoutPushType(_ server: MockAPNsServer) async throws -> Int {
        let headers = ["apns-topic": "com.example.app", "authorization": "bearer \(testProviderToken())"]
        return try await Curl.request(
            port: server.port, path: "/3/device/\(EndToEndTests.device)", headers: headers, body: EndToEndTests.alert
        ).status
    }

    @Test("the table shows the why under a rejected row, marks rows with notes, and cuts CONTENT within 120 columns")
    func tableShowsWhy() async throws {
        try await withControlServer { server, control in
            let big = Self.alert(bytes: 4150)
            #expect(big.utf8.count == 4150)
            #expect(try await sendPush(server, body: big) == 413)
            #expect(try await Self.pushWithoutPushType(server) == 200)
            let table = try await CLITests.run(["requests", "--control", control.url])
            #expect(table.status == 0, "\(table.errors)")
            let lines = table.output.split(separator: "\n").map(String.init)
            try #require(lines.count == 5, "\(table.output)")
            #expect(lines[1].hasPrefix("1 ") && lines[1].contains("413 PayloadTooLarge"), "\(lines[1])")
            #expect(lines[2].hasPrefix("       why: the payload is 4150 bytes; the limit is 4096"), "\(lines[2])")
            #expect(lines[3].hasPrefix("2*"), "\(lines[3])")
            #expect(lines[4].hasPrefix("* the record carries notes"), "\(lines[4])")
            for line in lines { #expect(line.count <= 120, "\(line.count) columns: \(line)") }
            #expect(lines[1].hasSuffix("…"), "\(lines[1])")
        }
    }

    @Test("requests SEQ explains one record: headers, auth, rule, why, answer; a missing SEQ fails, a bad one is usage")
    func explainsOneRecord() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server, body: Self.alert(bytes: 4150)) == 413)
            #expect(try await Self.pushWithoutPushType(server) == 200)
            let one = try await CLITests.run(["requests", "1", "--control", control.url])
            #expect(one.status == 0, "\(one.errors)")
            for text in [
                "#1 received", "request   POST /3/device/\(EndToEndTests.device)", "headers   apns-push-type: alert",
                "apns-topic: com.example.app", "payload   4150 bytes", "auth      token, team TESTTEAM01",
                "rule      payload.size: rejected", "why       the payload is 4150 bytes; the limit is 4096",
                "answer    413 PayloadTooLarge, apns-id ",
            ] {
                #expect(one.output.contains(text), "\(text) in \(one.output)")
            }
            let two = try await CLITests.run(["requests", "2", "--control", control.url])
            #expect(two.output.contains("notes     no apns-push-type: taken as alert"), "\(two.output)")

            let missing = try await CLITests.run(["requests", "9", "--control", control.url])
            #expect(missing.status != 0)
            #expect(missing.errors.contains("no record #9: the journal holds 2 record(s)"), "\(missing.errors)")
            let bad = try await CLITests.run(["requests", "seven", "--control", control.url])
            #expect(bad.status == 64, "\(bad.status)")
            #expect(bad.errors.contains("SEQ must be a record's sequence number"), "\(bad.errors)")
        }
    }

    @Test("requests SEQ of a Live Activity update says what the phone did and the activity before and after")
    func explainsLiveActivityPush() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let (id, token) = try await ActivityAPITests.startTaxi(server, status: "1")
            #expect(try await ActivityAPITests.update(server, token, #"{"status":"2"}"#).device?.kind == .applied)
            let update = try #require(server.journal.records().last?.sequence)
            let result = try await CLITests.run(["requests", String(update), "--control", control.url])
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output.contains("phone     applied"), "\(result.output)")
            #expect(result.output.contains("activity  \(id) \(ActivityAPITests.taxi), now active"), "\(result.output)")
            #expect(result.output.contains(#"before    active, content-state {"status":"1"} (#"#), "\(result.output)")
            #expect(result.output.contains(#"after     active, content-state {"status":"2"}"#), "\(result.output)")
        }
    }

    @Test("requests SEQ says a replay came through the control API, and which record it sent again")
    func explainsAReplay() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            #expect(try await ControlCurl.call("POST", control, "/v1/requests/1/replay").status == 201)
            let explained = try await CLITests.run(["requests", "2", "--control", control.url])
            #expect(explained.status == 0, "\(explained.errors)")
            let first = explained.output.split(separator: "\n").first ?? ""
            #expect(first.hasPrefix("#2 received ") && first.hasSuffix(" as a replay of #1 through the control API"))
        }
    }
}
