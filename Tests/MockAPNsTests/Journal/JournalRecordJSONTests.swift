import Foundation
import Testing

@testable import MockAPNs

/// The record's JSON is the journal file's and the control API's wire format: it must not change by accident.
@Suite("Journal record JSON")
struct JournalRecordJSONTests {
    static let headers = [APNsHeader("apns-topic", "com.example.app"), APNsHeader("apns-push-type", "alert")]
    static let payload = Array(#"{"aps":{"alert":{"title":"Caf\u00e9 \"quoted\"","body":"line\nbreak"}},"n":1.5}"#.utf8)
    static let auth = AuthSummary(
        kind: "certificate", teamID: "TEAM000001", keyID: "KEY0000001", issuedAt: 1_789_999_000, verified: true,
        certificateTopics: ["com.example.app", "com.example.app.voip"])
    static let response = APNsResponse(
        status: 410, apnsID: "123E4567-E89B-12D3-A456-4266554400A0", apnsUniqueID: "0f0e0d0c-0b0a-0908-0706-050403020100",
        body: #"{"reason":"Unregistered","timestamp":1789999999000}"#)

    /// A record with every field set, built through the public initialiser.
    static func fullRecord() -> JournalRecord {
        JournalRecord(
            sequence: 42, receivedAt: Date(timeIntervalSince1970: 1_790_000_000.1235),
            answeredAt: Date(timeIntervalSince1970: 1_790_000_000.2505), connectionID: 7,
            remoteAddress: "[::1]:50000",
            request: APNsRequest(
                method: "POST", path: "/3/device/00ff", authority: "localhost", headers: headers, body: payload,
                streamID: 13),
            verdict: Verdict(
                outcome: .rejected(.unregistered, timestamp: Date(timeIntervalSince1970: 1_789_999_999)),
                rule: "device.unregistered", explanation: "the device \"00ff\" is unregistered",
                notes: ["first note", "second: é"], auth: auth, pushType: "alert", topic: "com.example.app"),
            response: response, fault: .resetStream)
    }

    /// `fullRecord().json` as main wrote it at 6015066, before the record was restructured.
    static let fullJSON = ###"{"sequence":42,"kind":"push","receivedAt":"2026-09-21T14:13:20.123Z","answeredAt":"2026-09-21T14:13:20.250Z","connection":7,"remoteAddress":"[::1]:50000","stream":13,"method":"POST","path":"/3/device/00ff","authority":"localhost","token":"00ff","pushType":"alert","topic":"com.example.app","headers":[["apns-topic","com.example.app"],["apns-push-type","alert"]],"payload":"{\"aps\":{\"alert\":{\"title\":\"Caf\\u00e9 \\\"quoted\\\"\",\"body\":\"line\\nbreak\"}},\"n\":1.5}","payloadJSON":{"aps":{"alert":{"title":"Café \"quoted\"","body":"line\nbreak"}},"n":1.5},"accepted":false,"reason":"Unregistered","rule":"device.unregistered","explanation":"the device \"00ff\" is unregistered","notes":["first note","second: é"],"auth":{"kind":"certificate","teamID":"TEAM000001","keyID":"KEY0000001","issuedAt":1789999000,"verified":true,"certificateTopics":["com.example.app","com.example.app.voip"]},"response":{"status":410,"apnsID":"123E4567-E89B-12D3-A456-4266554400A0","apnsUniqueID":"0f0e0d0c-0b0a-0908-0706-050403020100","body":"{\"reason\":\"Unregistered\",\"timestamp\":1789999999000}"},"fault":"reset-stream"}"###

    /// The same with a payload the record kept only a prefix of.
    static let truncatedJSON = ###"{"sequence":42,"kind":"push","receivedAt":"2026-09-21T14:13:20.123Z","answeredAt":"2026-09-21T14:13:20.250Z","connection":7,"remoteAddress":"[::1]:50000","stream":13,"method":"POST","path":"/3/device/00ff","authority":"localhost","token":"00ff","pushType":"alert","topic":"com.example.app","headers":[["apns-topic","com.example.app"],["apns-push-type","alert"]],"payload":"{\"aps\":{\"alert\":{\"title\":\"Caf\\u00e9 \\\"quoted\\\"\",\"body\":\"line\\nbreak\"}},\"n\":1.5}","payloadJSON":{"aps":{"alert":{"title":"Café \"quoted\"","body":"line\nbreak"}},"n":1.5},"accepted":false,"reason":"Unregistered","rule":"device.unregistered","explanation":"the device \"00ff\" is unregistered","notes":["first note","second: é"],"payloadTruncated":true,"payloadBytes":70000,"auth":{"kind":"certificate","teamID":"TEAM000001","keyID":"KEY0000001","issuedAt":1789999000,"verified":true,"certificateTopics":["com.example.app","com.example.app.voip"]},"response":{"status":410,"apnsID":"123E4567-E89B-12D3-A456-4266554400A0","apnsUniqueID":"0f0e0d0c-0b0a-0908-0706-050403020100","body":"{\"reason\":\"Unregistered\",\"timestamp\":1789999999000}"},"fault":"reset-stream"}"###

    /// A record with only the required members, whose `fault` is a note rather than an injected fault.
    static let bareJSON = ###"{"sequence":1,"kind":"push","receivedAt":"2026-09-21T14:13:20.123Z","answeredAt":null,"connection":2,"remoteAddress":"","stream":0,"method":"GET","path":"/x","authority":null,"token":null,"pushType":null,"topic":null,"headers":[],"payload":"","payloadJSON":null,"accepted":true,"reason":null,"rule":"accepted","explanation":"","notes":[],"auth":null,"response":null,"fault":"stream closed by the client before the answer"}"###

    @Test("a record with every field set writes the JSON main wrote, member for member and byte for byte")
    func fullRecordJSON() throws {
        #expect(Self.fullRecord().json.jsonText == Self.fullJSON)
        let readBack = try #require(JournalRecord(json: try JSONParser.parse(Self.fullJSON)))
        #expect(readBack.json.jsonText == Self.fullJSON)
        #expect(readBack.injectedFault == .resetStream && readBack.note == nil && readBack.fault == "reset-stream")
        #expect(readBack.deviceToken == "00ff")
    }

    @Test("numbers out of range in a record's auth or response read as absent, without trapping")
    func outOfRangeNumbers() throws {
        let text = Self.fullJSON
            .replacingOccurrences(of: #""issuedAt":1789999000"#, with: #""issuedAt":1e300"#)
            .replacingOccurrences(of: #""status":410"#, with: #""status":18446744073709551615"#)
        let record = try #require(JournalRecord(json: try JSONParser.parse(text)))
        #expect(record.auth?.issuedAt == nil && record.auth?.kind == "certificate")
        #expect(record.response == nil)
    }

    @Test("a truncated payload's size and flag are read back and written again after the other members")
    func truncatedRecordJSON() throws {
        let record = try #require(JournalRecord(json: try JSONParser.parse(Self.truncatedJSON)))
        #expect(record.payloadTruncated && record.payloadBytes == 70000)
        #expect(record.json.jsonText == Self.truncatedJSON)
    }

    @Test("a fault that names no scripted fault is the record's note, written back as the same fault member")
    func noteJSON() throws {
        var record = try #require(JournalRecord(json: try JSONParser.parse(Self.bareJSON)))
        #expect(record.injectedFault == nil)
        #expect(record.note == "stream closed by the client before the answer")
        #expect(record.json.jsonText == Self.bareJSON)
        record.note = nil
        #expect(record.json["fault"] == .null)
    }

    @Test("a replay reads back with no connection and the record it replays; a connection that is text is refused")
    func replayJSON() throws {
        let text = WireTypeSamples.replay.jsonText
        let record = try #require(JournalRecord(json: try JSONParser.parse(text)))
        #expect(record.connectionID == 0 && record.streamID == 0)
        #expect(record.replayOf == 9)
        #expect(record.json.jsonText == text)
        let textConnection = text.replacingOccurrences(of: #""connection":null"#, with: #""connection":"2""#)
        #expect(JournalRecord(json: try JSONParser.parse(textConnection)) == nil)
        // Setting the phone's outcome keeps replayOf, and the other way round.
        var replayed = record
        replayed.device = WireTypeSamples.device
        #expect(replayed.replayOf == 9)
        replayed.replayOf = nil
        #expect(replayed.device == WireTypeSamples.device)
        #expect(replayed.json["replayOf"] == nil)
    }
}
