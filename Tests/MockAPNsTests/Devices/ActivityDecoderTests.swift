import Foundation
import Testing

@testable import MockAPNs

/// `ActivityDecoder`: Swift's default `JSONDecoder` rules with the mock's error texts, edge by edge.
@Suite("ActivityDecoder")
struct ActivityDecoderTests {
    static let takeout = ActivitySchema(
        name: "mpushTakeoutAttributes",
        attributes: [ActivityField("shopName", .string), ActivityField("orderID", .string)],
        contentState: [
            ActivityField("status", .int), ActivityField("eta", .optional(.date)),
            ActivityField("rider", .optional(.string)),
        ])

    /// The content state `json` decoded as `fields` (or the takeout type's content state).
    func decode(
        _ json: String, _ fields: [ActivityField] = takeout.contentState,
        dates: ActivityDateDecoding = .deferredToDate
    ) throws -> ActivityDecodeResult {
        ActivityDecoder(dateDecoding: dates).decode(
            try JSONParser.parse(json), as: fields, at: "content-state")
    }

    /// The error text for `json`, or `nil` when it decodes.
    func failure(_ json: String, _ fields: [ActivityField] = takeout.contentState) throws -> String? {
        try decode(json, fields).error?.description
    }

    @Test("a content state with every key, with optionals missing, and with optionals null decodes")
    func optionals() throws {
        #expect(try failure(#"{"status": 2, "eta": 785000000, "rider": "Ana"}"#) == nil)
        #expect(try failure(#"{"status": 2}"#) == nil)
        #expect(try failure(#"{"status": 2, "eta": null, "rider": null}"#) == nil)
    }

    @Test("a missing non-optional key is keyNotFound; null for it is valueNotFound")
    func missingAndNull() throws {
        let missing = try #require(try decode(#"{"eta": 1}"#).error)
        #expect(missing.kind == .keyNotFound)
        #expect(missing.description == "content-state.status: missing required key")
        let null = try #require(try decode(#"{"status": null}"#).error)
        #expect(null.kind == .valueNotFound)
        #expect(null.description == "content-state.status: expected Int, found null")
    }

    @Test("a wrong JSON type names the path, the Swift type and the JSON type")
    func wrongTypes() throws {
        let fields = [ActivityField("status", .string)]
        #expect(
            try failure(#"{"status": 3}"#, fields)
                == "content-state.status: expected String, found number")
        #expect(
            try failure(#"{"status": true}"#, fields)
                == "content-state.status: expected String, found bool")
        #expect(
            try failure(#"{"status": []}"#, fields)
                == "content-state.status: expected String, found array")
        #expect(
            try failure(#"{"status": {}}"#, fields)
                == "content-state.status: expected String, found object")
        #expect(try failure(#"{"status": "3"}"#) == "content-state.status: expected Int, found string")
        #expect(try failure(#"[1]"#) == "content-state: expected an object, found array")
    }

    @Test(
        "Int takes whole numbers in Int64's range, also written 3.0 or 1e3, and refuses 3.5 and 2^63")
    func integers() throws {
        for accepted in ["3", "-0", "3.0", "1e3", "9223372036854775807", "-9223372036854775808"] {
            #expect(try failure(#"{"status": \#(accepted)}"#) == nil, "\(accepted)")
        }
        #expect(
            try failure(#"{"status": 3.5}"#) == "content-state.status: number 3.5 does not fit in Int")
        #expect(try decode(#"{"status": 9223372036854775808}"#).error?.kind == .dataCorrupted)
        #expect(try decode(#"{"status": 1e-3}"#).error?.kind == .dataCorrupted)
        #expect(SwiftJSONNumber.int("1e3") == 1000)
        #expect(SwiftJSONNumber.int("9007199254740993.0") == 9_007_199_254_740_993)
    }

    @Test(
        "Double takes integers and refuses what overflows or underflows to zero; Bool refuses 0 and 1")
    func doublesAndBools() throws {
        let double = [ActivityField("v", .double)]
        #expect(try failure(#"{"v": 3}"#, double) == nil)
        #expect(try failure(#"{"v": -0.0}"#, double) == nil)
        #expect(
            try failure(#"{"v": 1e400}"#, double)
                == "content-state.v: number 1e400 does not fit in Double")
        #expect(
            try failure(#"{"v": 1e-400}"#, double)
                == "content-state.v: number 1e-400 does not fit in Double")
        let bool = [ActivityField("v", .bool)]
        #expect(try failure(#"{"v": false}"#, bool) == nil)
        #expect(try failure(#"{"v": 0}"#, bool) == "content-state.v: expected Bool, found number")
        #expect(try failure(#"{"v": 1}"#, bool) == "content-state.v: expected Bool, found number")
    }

    @Test("URL takes what URL(string:) takes and refuses the empty string")
    func urls() throws {
        let url = [ActivityField("logo", .url)]
        #expect(try failure(#"{"logo": "https://example.com/logo.png"}"#, url) == nil)
        #expect(try failure(#"{"logo": ""}"#, url) == #"content-state.logo: invalid URL string """#)
        #expect(try failure(#"{"logo": "http://[::1"}"#, url) != nil)
        #expect(try failure(#"{"logo": 7}"#, url) == "content-state.logo: expected URL, found number")
    }

    @Test("Date decodes per strategy and the decoded dates come back with their paths")
    func dates() throws {
        let eta = [ActivityField("eta", .date)]
        let deferred = try decode(#"{"eta": 0}"#, eta)
        #expect(
            deferred.dates == [
                ActivityDecodedDate(
                    path: "content-state.eta", date: Date(timeIntervalSinceReferenceDate: 0))
            ])
        let seconds = try decode(#"{"eta": 1700000000}"#, eta, dates: .secondsSince1970)
        #expect(seconds.dates.first?.date == Date(timeIntervalSince1970: 1_700_000_000))
        let millis = try decode(#"{"eta": 1700000000500}"#, eta, dates: .millisecondsSince1970)
        #expect(millis.dates.first?.date == Date(timeIntervalSince1970: 1_700_000_000.5))
        let iso = try decode(#"{"eta": "2026-11-23T10:00:00Z"}"#, eta, dates: .iso8601)
        #expect(iso.dates.first?.date == Date(timeIntervalSince1970: 1_795_428_000))
        // Foundation's default ISO 8601 parse (iOS 17+) also takes fractional seconds, and keeps them.
        let fractional = try decode(#"{"eta": "2026-11-23T10:00:00.250Z"}"#, eta, dates: .iso8601)
        #expect(fractional.dates.first?.date == Date(timeIntervalSince1970: 1_795_428_000.25))
        let dayOnly = try decode(#"{"eta": "2026-11-23"}"#, eta, dates: .iso8601)
        #expect(dayOnly.error?.kind == .dataCorrupted)
        #expect(
            try decode(#"{"eta": "2026-11-23T10:00:00Z"}"#, eta).error?.description
                == "content-state.eta: expected Date as seconds since 2001-01-01 (deferredToDate), found string"
        )
        #expect(
            try decode(#"{"eta": 1}"#, eta, dates: .iso8601).error?.description
                == "content-state.eta: expected Date as an ISO 8601 string (iso8601), found number")
    }

    @Test(
        "nested objects, arrays of optionals and optional objects report the first failure at its path")
    func nested() throws {
        let fields = [
            ActivityField("rider", .optional(.object([ActivityField("name", .string)]))),
            ActivityField("stops", .array(.object([ActivityField("at", .int)]))),
            ActivityField("tags", .array(.optional(.string))),
        ]
        #expect(try failure(#"{"stops": [{"at": 1}], "tags": ["a", null]}"#, fields) == nil)
        #expect(
            try failure(#"{"rider": {}, "stops": [], "tags": []}"#, fields)
                == "content-state.rider.name: missing required key")
        #expect(
            try failure(#"{"stops": [{"at": 1}, {"at": "2"}], "tags": [3]}"#, fields)
                == "content-state.stops[1].at: expected Int, found string")
        #expect(
            try failure(#"{"stops": [], "tags": [3]}"#, fields)
                == "content-state.tags[0]: expected String, found number")
        #expect(
            try failure(#"{"stops": [null], "tags": []}"#, fields)
                == "content-state.stops[0]: expected object, found null")
    }

    @Test("extra keys are ignored and a repeated key counts with its first value")
    func extraAndRepeatedKeys() throws {
        #expect(try failure(#"{"status": 1, "unknown": {"deep": [1, 2]}}"#) == nil)
        #expect(try failure(#"{"status": 1, "status": "x"}"#) == nil)
        #expect(
            try failure(#"{"status": "x", "status": 1}"#)
                == "content-state.status: expected Int, found string")
    }

    @Test("attributes and content state decode through the schema with their own path")
    func schemaEntryPoints() throws {
        let attributes = try JSONParser.parse(#"{"shopName": "Pizza"}"#)
        #expect(
            Self.takeout.decodeAttributes(attributes).error?.description
                == "attributes.orderID: missing required key")
        #expect(Self.takeout.decodeContentState(try JSONParser.parse(#"{"status": 1}"#)).error == nil)
    }
}
