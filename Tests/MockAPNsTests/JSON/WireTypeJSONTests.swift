import Foundation
import Testing

@testable import MockAPNs

/// Every wire type's JSON is declared once, as a table (`JSONMapped`): these hold each table to what the hand-written
/// encoders and decoders did before it (`WireTypeFixtures`), and round-trip every type so that a member the table
/// writes but does not read back shows as a difference instead of a silent `nil`.
@Suite("Wire type JSON")
struct WireTypeJSONTests {
    typealias S = WireTypeSamples

    /// A sample of a wire type: its fixture name, its JSON two ways, and its JSON after a round trip.
    struct Sample: Sendable, CustomStringConvertible {
        var name: String
        var json: JSONValue
        var text: String
        var readBack: JSONValue?
        /// The names of the members the type's table declares.
        var members: [String]
        var description: String { name }

        init<T: JSONMapped>(_ name: String, _ value: T) {
            self.name = name
            json = value.json
            text = value.jsonText
            readBack = T(json: value.json)?.json
            members = T.jsonMapping.members.map(\.name)
        }
    }

    /// Every wire type, with every member set, and the variants that leave members out.
    static let samples: [Sample] = [
        Sample("record", S.record), Sample("replay", S.replay), Sample("auth", S.auth), Sample("bareAuth", S.bareAuth),
        Sample("response", S.response), Sample("bareResponse", S.bareResponse), Sample("device", S.device),
        Sample("bareDevice", S.bareDevice), Sample("push", S.push), Sample("barePush", S.barePush),
        Sample("upload", S.upload), Sample("activity", S.activity), Sample("localActivity", S.localActivity),
        Sample("change", S.change), Sample("nearMiss", S.nearMiss), Sample("verifyItem", S.verifyItem),
        Sample("verifyReport", S.verifyReport), Sample("stats", S.stats), Sample("reading", S.reading),
        Sample("satisfied", RecordWaitResult(satisfied: true, count: 0, records: [], nearMisses: [])),
    ]

    /// The samples with every member set: the round trip of these covers every member of every table.
    static let fullSamples = [
        "record", "auth", "response", "device", "push", "upload", "activity", "change", "nearMiss", "verifyItem",
        "verifyReport", "stats", "reading",
    ]

    @Test("each wire type writes the JSON the hand-written encoder wrote, byte for byte", arguments: samples)
    func writesTodaysJSON(sample: Sample) throws {
        let expected = try #require(WireTypeFixtures.written[sample.name])
        #expect(sample.json.jsonText == expected)
        #expect(sample.text == expected, "jsonText, written straight from the table")
    }

    @Test("each wire type reads back every member it writes", arguments: samples)
    func roundTrips(sample: Sample) throws {
        #expect(sample.readBack == sample.json)
        let fixture = try JSONParser.parse(try #require(WireTypeFixtures.written[sample.name]))
        #expect(fixture == sample.json)
    }

    @Test("the full samples set every member their table declares, so the round trip checks each one")
    func samplesCoverEveryMember() throws {
        // A cut payload's two members are round-tripped by JournalRecordJSONTests' truncated record, and
        // `replayOf` by the replay sample.
        let truncated = try #require(JournalRecord(json: try JSONParser.parse(JournalRecordJSONTests.truncatedJSON)))
        #expect(truncated.json.jsonText == JournalRecordJSONTests.truncatedJSON)
        for name in Self.fullSamples {
            let sample = try #require(Self.samples.first { $0.name == name })
            for member in sample.members {
                let value =
                    sample.json[member] ?? (name == "record" ? truncated.json[member] ?? S.replay.json[member] : nil)
                #expect(value != nil && value != .null, "\(name).\(member) is not set in WireTypeSamples")
            }
        }
    }

    @Test("the wait result and the clock moves still write what the control API answered")
    func contextualJSON() {
        let query = JournalQuery(topic: "com.example.app")
        #expect(S.waitResult.json(query: query, timeout: .seconds(2)).jsonText == WireTypeFixtures.written["waitResult"])
        let satisfied = RecordWaitResult(satisfied: true, count: 0, records: [], nearMisses: [])
        #expect(satisfied.json(query: JournalQuery(), timeout: .seconds(1)).jsonText == WireTypeFixtures.written["satisfied"])
        for (move, name) in zip(S.moves, ["advance", "set", "reset"]) {
            #expect(move.json.jsonText == WireTypeFixtures.written[name])
        }
    }

    /// How each fixture input is read, and written back.
    static let readers: [String: @Sendable (JSONValue) -> JSONValue?] = [
        "record": { JournalRecord(json: $0)?.json },
        "recordReason": { JournalRecord(json: $0).map { .string("\($0.verdict.outcome)") } },
        "recordNoRule": { JournalRecord(json: $0)?.json },
        "recordBadSeq": { JournalRecord(json: $0)?.json },
        "auth": { AuthSummary(json: $0)?.json },
        "authNoVerified": { AuthSummary(json: $0)?.json },
        "response": { APNsResponse(json: $0)?.json },
        "device": { DeviceOutcome(json: $0)?.json },
        "deviceUnknown": { DeviceOutcome(json: $0)?.json },
        "push": { ActivityPush(json: $0)?.json },
        "upload": { TokenUpload(json: $0, activityID: "A")?.json },
        "activity": { ActivitySnapshot(json: $0)?.json },
        "change": { ActivityChange(json: $0)?.json },
        "nearMiss": { NearMiss(json: $0)?.json },
        "wait": { RecordWaitResult(json: $0)?.json(query: JournalQuery(), timeout: .seconds(1)) },
        "verify": { VerifyReport(json: $0)?.json },
        "stats": { MockAPNsStats(json: $0).json },
        "reading": { ClockReading(json: $0)?.json },
        "readingBad": { ClockReading(json: $0)?.json },
    ]

    @Test("each wire type takes the smallest JSON it took before, and refuses what it refused", arguments: Array(WireTypeFixtures.read.keys.sorted()))
    func readsTodaysInputs(name: String) throws {
        let (input, output) = try #require(WireTypeFixtures.read[name])
        let read = try #require(Self.readers[name])
        #expect(read(try JSONParser.parse(input))?.jsonText == output)
    }

    @Test("a mapped object is read whatever its members' order, and a repeated member reads as its first")
    func memberOrder() throws {
        let json = try JSONParser.parse(#"{"notes":["n"],"outcome":"dropped","reason":"r","reason":"second"}"#)
        let outcome = try #require(DeviceOutcome(json: json))
        #expect(outcome == DeviceOutcome(.dropped, reason: "r", notes: ["n"]))
    }

    @Test("numbers out of range or of the wrong kind read as absent, without trapping")
    func numbersWithoutTrapping() throws {
        let stats = MockAPNsStats(json: try JSONParser.parse(#"{"records":1e300,"total":-1,"accepted":2.0}"#))
        #expect(stats.records == 0 && stats.total == 0 && stats.accepted == 2)
        let push = try JSONParser.parse(#"{"at":"2026-09-21T14:13:20.123Z","event":"e","outcome":"applied","priority":1e300}"#)
        #expect(ActivityPush(json: push)?.priority == nil)
        #expect(JSONForm<UInt64>.integer(from: .number("18446744073709551616")) == nil)
        #expect(JSONForm<Int32>.integer(from: .number("-2147483648.5")) == -2_147_483_648)
    }
}
