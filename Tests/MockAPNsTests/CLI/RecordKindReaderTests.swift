import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// Every reader of records keeps one of a kind it does not read (issue 21 item 4): the Swift client and
/// `mock-apns requests` against a control API answering it (fixed JSON over a real socket, as a newer server would
/// send it), and `mock-apns verify --journal` reading it from a journal file.
@Suite("Readers of records of other kinds", .serialized)
struct RecordKindReaderTests {
    static let broadcastLine = JournalRecordKindTests.broadcastLine
    static let pushLine = JournalRecordJSONTests.fullJSON

    /// The control API's answers: the list with a push and a broadcast send, and the broadcast send by number.
    static let answers = [
        "/v1/requests": #"{"records":["# + pushLine + "," + broadcastLine + "]}",
        "/v1/requests/7": broadcastLine,
    ]

    @Test("the Swift client reads a record of another kind in a list and by number, keeping it as sent")
    func client() async throws {
        try await LocalHTTPServer.cannedAnswers(Self.answers) { url in
            let client = MockAPNsControlClient(url: url)
            let records = try await client.records(JournalQuery())
            #expect(records.map(\.kind) == [.devicePush, .broadcast])
            #expect(records.map(\.jsonText) == [Self.pushLine, Self.broadcastLine])
            let one = try #require(try await client.record(sequence: 7))
            #expect(one.kind == .broadcast && one.jsonText == Self.broadcastLine)
        }
    }

    @Test("mock-apns requests shows a record of another kind as a row, prints it as received with --json")
    func requests() async throws {
        try await LocalHTTPServer.cannedAnswers(Self.answers) { url in
            let table = try await CLITests.run(["requests", "--control-url", url])
            #expect(table.status == 0, "\(table.errors)")
            // The push's row (with its why and the notes legend), then the broadcast send's: kind and members.
            let rows = table.output.split(separator: "\n").map(String.init)
            let row = try #require(rows.first { $0.hasPrefix("7 ") }, "\(table.output)")
            #expect(rows.contains { $0.hasPrefix("42* ") }, "\(table.output)")
            #expect(row.contains(" broadcast ") && row.contains(#"channel: "dGVzdA==", p"#), "\(row)")
            let json = try await CLITests.run(["requests", "--control-url", url, "--json"])
            #expect(json.status == 0, "\(json.errors)")
            #expect(json.output == Self.pushLine + "\n" + Self.broadcastLine + "\n")
            let one = try await CLITests.run(["requests", "7", "--control-url", url])
            #expect(one.status == 0, "\(one.errors)")
            #expect(one.output.hasPrefix(#"#7 broadcast received 2026-09-21T14:13:20.123Z: channel: "dGVzdA==""#))
        }
    }

    @Test("mock-apns verify --journal reads a record of another kind and checks only the device pushes")
    func verifyJournal() async throws {
        let folder = try RunTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try RunTestSupport.write(
            Self.pushLine + "\n" + Self.broadcastLine + "\n", "journal.jsonl", in: folder)
        let scenario = try RunTestSupport.write(
            "expect:\n  - name: the push\n    match: { topic: com.example.app }\n    count: 1\nunexpected: fail\n",
            "one.yaml", in: folder)
        let verify = try await RunTestSupport.mockAPNs(["verify", scenario, "--journal", journal])
        #expect(verify.status == 0, "\(verify.output)\(verify.errors)")
        #expect(verify.output.contains("0 failed, 1 record checked"), "\(verify.output)")
    }
}
