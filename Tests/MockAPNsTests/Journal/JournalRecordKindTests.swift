import Foundation
import Testing

@testable import MockAPNs

/// Records have kinds (issue 21 item 4): a device push writes `"kind":"push"`, and a record of a kind this version
/// does not read is kept as received by every reader instead of failing it.
@Suite("Journal record kinds")
struct JournalRecordKindTests {
    /// A record of a kind no reader of this version reads member by member, as a newer server could write it.
    static let broadcastLine =
        #"{"sequence":7,"kind":"broadcast","receivedAt":"2026-09-21T14:13:20.123Z","connection":3,"#
        + #""channel":"dGVzdA==","payload":{"aps":{"event":"update"}},"status":200}"#

    static func parse(_ text: String) throws -> JournalRecord? {
        JournalRecord(json: try JSONParser.parse(Array(text.utf8)))
    }

    @Test("a device push writes kind push after its sequence, and a record without kind reads as a device push")
    func devicePushKind() throws {
        let record = JournalRecordJSONTests.fullRecord()
        #expect(record.kind == .devicePush && record.rawJSON == nil)
        #expect(record.jsonText.hasPrefix(#"{"sequence":42,"kind":"push","receivedAt""#))
        let withoutKind = JournalRecordJSONTests.fullJSON.replacingOccurrences(of: #""kind":"push","#, with: "")
        let old = try #require(try Self.parse(withoutKind))
        #expect(old.kind == .devicePush && old.jsonText == JournalRecordJSONTests.fullJSON)
    }

    @Test("a record of another kind is kept with its common members and written back byte for byte")
    func otherKindKept() throws {
        let record = try #require(try Self.parse(Self.broadcastLine))
        #expect(record.kind == .broadcast && record.kind.name == "broadcast")
        #expect(record.sequence == 7 && record.connectionID == 3)
        #expect(record.receivedAt == Timestamp.date(fromText: "2026-09-21T14:13:20.123Z"))
        #expect(record.jsonText == Self.broadcastLine)
        #expect(record.json == (try JSONParser.parse(Array(Self.broadcastLine.utf8))))
        #expect(record.deviceToken == nil && record.response == nil && !record.accepted)
        #expect(record.otherKindText == #"channel: "dGVzdA==", payload: {"aps":{"event":"update"}}, status: 200"#)
        #expect(record.summaryLine.hasPrefix(#"#7 broadcast: channel: "dGVzdA==""#))
        let newer = #"{"sequence":8,"kind":"x-new","receivedAt":"2026-09-21T14:13:20Z"}"#
        let unnamed = try #require(try Self.parse(newer))
        #expect(unnamed.kind == JournalRecord.Kind("x-new") && unnamed.connectionID == 0)
    }

    @Test("a record of another kind without a sequence, a time or a kind name is not a record")
    func otherKindRefused() throws {
        #expect(try Self.parse(#"{"kind":"broadcast","receivedAt":"2026-09-21T14:13:20.123Z"}"#) == nil)
        #expect(try Self.parse(#"{"sequence":1,"kind":"broadcast"}"#) == nil)
        #expect(try Self.parse(#"{"sequence":1,"kind":7,"receivedAt":"2026-09-21T14:13:20.123Z"}"#) == nil)
    }

    @Test("the search's kind: term tells kinds apart; push fields never match another kind, its answer and channel do")
    func searchKind() throws {
        let broadcast = try #require(try Self.parse(Self.broadcastLine))
        let push = JournalRecordJSONTests.fullRecord()
        let byKind = JournalQuery(search: try RecordSearch("kind:broadcast"))
        #expect(byKind.matches(broadcast) && !byKind.matches(push))
        let pushes = JournalQuery(search: try RecordSearch("kind:push"))
        #expect(pushes.matches(push) && !pushes.matches(broadcast))
        #expect(JournalQuery().matches(broadcast), "an unfiltered listing shows every record")
        #expect(JournalQuery(search: try RecordSearch("connection:3")).matches(broadcast))
        for text in ["accepted:true", "accepted:false", "topic:com.example.app", "rule:accepted", "status:4xx"] {
            #expect(!JournalQuery(search: try RecordSearch(text)).matches(broadcast), "\(text)")
        }
        for text in ["status:2xx", "status:200", "channel:dGVzdA=="] {
            #expect(JournalQuery(search: try RecordSearch(text)).matches(broadcast), "\(text)")
        }
        #expect(!JournalQuery(search: try RecordSearch("channel:dGVzdA==")).matches(push))
        #expect(broadcast.outcomeText == "200")
    }

    @Test("expectations and unexpected: fail neither count nor flag a record of another kind")
    func verifyIgnoresOtherKinds() throws {
        let broadcast = try #require(try Self.parse(Self.broadcastLine))
        let yaml = "expect:\n  - match: { topic: com.example.app }\n    count: 1\nunexpected: fail"
        let scenario = try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
        let push = JournalRecordJSONTests.fullRecord()
        let report = scenario.verify([broadcast, push], startedAt: .distantPast)
        #expect(report.passed, "\(report.items.map(\.summary))")
        #expect(report.items.first?.records == [42])
    }
}
