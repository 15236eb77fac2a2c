import Foundation
import Testing

@testable import MockAPNs

/// The checks that go with decoding: dates far from the clock, and the device's 4 KB limit.
@Suite("activity date warning and size")
struct ActivityChecksTests {
    static let now = Date(timeIntervalSince1970: 1_795_428_000)  // 2026-11-23T10:00:00Z

    func warnings(_ json: String, _ decoding: ActivityDateDecoding) throws -> [String] {
        let fields = [ActivityField("timerEnd", .date)]
        let result = ActivityDecoder(dateDecoding: decoding).decode(
            try JSONParser.parse(json), as: fields, at: "content-state")
        return ActivityDateWarning.warnings(for: result.dates, dateDecoding: decoding, now: Self.now)
    }

    @Test("a Unix time sent to a deferredToDate field decodes to 2057 and is named in a warning")
    func unixTimeToDeferred() throws {
        #expect(
            try warnings(#"{"timerEnd": 1795428600}"#, .deferredToDate) == [
                "content-state.timerEnd decodes to 2057-11-23: a Unix time sent to a deferredToDate field?"
            ])
        // The same instant as seconds since 2001 is ten minutes ahead: no warning.
        #expect(try warnings(#"{"timerEnd": 817121400}"#, .deferredToDate).isEmpty)
    }

    @Test("the other strategies' mix-ups, and a far date with no likely mix-up")
    func otherStrategies() throws {
        #expect(
            try warnings(#"{"timerEnd": 1795428600000}"#, .secondsSince1970).first?.hasSuffix(
                ": milliseconds sent to a secondsSince1970 field?") == true)
        #expect(
            try warnings(#"{"timerEnd": 1795428600}"#, .millisecondsSince1970)
                == [
                    "content-state.timerEnd decodes to 1970-01-21: seconds sent to a millisecondsSince1970 field?"
                ])
        #expect(
            try warnings(#"{"timerEnd": 817121400}"#, .secondsSince1970)
                == [
                    "content-state.timerEnd decodes to 1995-11-23: seconds since 2001 sent to a secondsSince1970 field?"
                ])
        #expect(
            try warnings(#"{"timerEnd": "2030-01-01T00:00:00Z"}"#, .iso8601)
                == ["content-state.timerEnd decodes to 2030-01-01: more than 365 days ahead of the clock"])
        #expect(
            try warnings(#"{"timerEnd": 1e300}"#, .deferredToDate).first?.contains(
                "a date after the year 9999") == true)
    }

    @Test(
        "the threshold is inclusive: a date exactly one threshold away is not reported, one second more is"
    )
    func threshold() {
        let threshold: TimeInterval = 3600
        let dates = [
            ActivityDecodedDate(path: "a", date: Self.now.addingTimeInterval(threshold)),
            ActivityDecodedDate(path: "b", date: Self.now.addingTimeInterval(-threshold - 1)),
        ]
        let result = ActivityDateWarning.warnings(
            for: dates, dateDecoding: .iso8601, now: Self.now, threshold: threshold)
        #expect(result == ["b decodes to 2026-11-23: more than 1h before the clock"])
    }

    @Test("attributes and content state of 4096 bytes together fit; 4097 are refused")
    func sizeLimit() {
        // {"p":"…"} is 8 bytes around the string; attributes {} are 2.
        let attributes: JSONValue = .object([])
        let fits: JSONValue = .object([("p", .string(String(repeating: "x", count: 4096 - 2 - 8)))])
        #expect(ActivitySize.bytes(attributes: attributes, contentState: fits) == 4096)
        #expect(ActivitySize.problem(attributes: attributes, contentState: fits) == nil)
        let over: JSONValue = .object([("p", .string(String(repeating: "x", count: 4096 - 2 - 8 + 1)))])
        #expect(
            ActivitySize.problem(attributes: attributes, contentState: over)
                == "attributes and content-state are 4097 bytes together, more than the device's 4096")
        #expect(ActivitySize.bytes(attributes: nil, contentState: nil) == 0)
    }

    @Test(
        "the size counts compact JSON: the provider's spaces do not count, multi-byte characters do")
    func sizeIsCompactUTF8() throws {
        let spaced = try JSONParser.parse(#"{ "a" : [ 1 , 2 ] }"#)
        #expect(ActivitySize.bytes(attributes: spaced, contentState: nil) == #"{"a":[1,2]}"#.utf8.count)
        #expect(ActivitySize.bytes(attributes: nil, contentState: .object([("é", "€")])) == 12)
    }
}
