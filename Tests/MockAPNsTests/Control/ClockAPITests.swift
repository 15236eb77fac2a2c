import Foundation
import Testing

@testable import MockAPNs

/// `GET/POST /v1/clock` over real sockets with curl, as a shell script calls them.
@Suite("Control API: the clock", .serialized)
struct ClockAPITests {
    /// The clock's `now` as a date, and its `unix` and `offset` members.
    static func clock(_ answer: ControlCurl.Answer) throws -> (now: Date, unix: Double, offset: String) {
        let json = try #require(answer.json, "\(answer.text)")
        let now = try #require(json["now"]?.stringValue.flatMap(Timestamp.date(fromText:)), "\(answer.text)")
        return (now, try #require(json["unix"]?.doubleValue), try #require(json["offset"]?.stringValue))
    }

    /// Whether `date` is `seconds` from real time, give or take the time a curl call takes.
    static func isAbout(_ date: Date, _ seconds: TimeInterval) -> Bool {
        abs(date.timeIntervalSinceNow - seconds) < 10
    }

    @Test("GET reads real time at offset 0s; advance, set and reset move it and answer the new clock")
    func readAndMove() async throws {
        try await withControlServer { _, control in
            let start = try await ControlCurl.call("GET", control, "/v1/clock")
            #expect(start.status == 200)
            let initial = try Self.clock(start)
            #expect(initial.offset == "0s")
            #expect(Self.isAbout(initial.now, 0))
            #expect(abs(initial.unix - initial.now.timeIntervalSince1970) < 0.002)
            #expect(
                start.text.range(of: #""now":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z""#, options: .regularExpression)
                    != nil)

            let advanced = try Self.clock(
                try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "9h"}"#))
            #expect(advanced.offset == "9h")
            #expect(Self.isAbout(advanced.now, 9 * 3600))
            let read = try Self.clock(try await ControlCurl.call("GET", control, "/v1/clock"))
            #expect(read.offset == "9h" && Self.isAbout(read.now, 9 * 3600))

            let back = try Self.clock(
                try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "-90m"}"#))
            #expect(back.offset == "27000s")  // 7h30m

            let set = try await ControlCurl.call(
                "POST", control, "/v1/clock", body: #"{"set": "2026-11-22T18:00:00Z"}"#)
            #expect(set.status == 200)
            let setClock = try Self.clock(set)
            #expect(abs(setClock.now.timeIntervalSince1970 - 1_795_370_400) < 1)
            #expect(setClock.offset.hasPrefix(setClock.now < Date() ? "-" : ""))
            let fraction = try Self.clock(
                try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"set": "2030-01-01T00:00:00.250Z"}"#))
            #expect(abs(fraction.now.timeIntervalSince1970 - 1_893_456_000.25) < 1)

            let reset = try Self.clock(
                try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"reset": true}"#))
            #expect(reset.offset == "0s")
            #expect(Self.isAbout(reset.now, 0))
        }
    }

    @Test(
        "refuses a bad body with 400 naming the field, and leaves the clock where it was",
        arguments: [
            (#"{}"#, "exactly one of advance, set or reset, got 0"),
            (#"{"advance": "9h", "reset": true}"#, "exactly one of advance, set or reset, got 2"),
            (#"{"advanse": "9h"}"#, "unknown field 'advanse' (did you mean 'advance'?)"),
            (#"{"advance": "9"}"#, "advance: a duration needs a unit"),
            (#"{"advance": 9}"#, "advance: expected a duration"),
            (#"{"advance": "soon"}"#, "advance: expected a duration such as"),
            (#"{"advance": "99999h"}"#, "advance: must be at most 87660h"),
            (#"{"advance": "--5m"}"#, "advance: must not be negative"),
            (#"{"set": "yesterday"}"#, "set: expected an ISO 8601 time"),
            (#"{"set": 1795370400}"#, "set: expected an ISO 8601 time"),
            (#"{"set": "2046-01-01T00:00:00Z"}"#, "set: the clock would be"),
            (#"{"reset": false}"#, "reset: expected true, got false"),
            ("not json", "the body is not JSON"),
            (#"["advance", "9h"]"#, "the body must be a JSON object"),
        ])
    func badBodies(body: String, message: String) async throws {
        try await withControlServer { _, control in
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "1h"}"#)
            let answer = try await ControlCurl.call("POST", control, "/v1/clock", body: body)
            #expect(answer.status == 400)
            #expect(answer.error?.contains(message) == true, "\(answer.text)")
            #expect(try Self.clock(try await ControlCurl.call("GET", control, "/v1/clock")).offset == "1h")
        }
    }

    @Test("an advance that would take the clock past 10 years from real time is refused; at the limit it is not")
    func range() async throws {
        try await withControlServer { _, control in
            let first = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "87660h"}"#)
            #expect(first.status == 200 && first.json?["offset"] == "87660h")
            let second = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "1ms"}"#)
            #expect(second.status == 400)
            #expect(second.error?.contains("advance: the clock would be 315576000.001s from real time") == true)
            let back = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "-87660h"}"#)
            #expect(back.json?["offset"] == "0s")
            let behind = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "-87660h"}"#)
            #expect(behind.json?["offset"] == "-87660h")
            let past = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "-1s"}"#)
            #expect(past.status == 400)
            #expect(past.error?.contains("the clock would be -315576001s from real time") == true, "\(past.text)")
        }
    }

    @Test("POST /v1/reset sets the clock back to real time; PUT /v1/scenario keeps it")
    func resetSetsTheClockBack() async throws {
        try await withControlServer { _, control in
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "9h"}"#)
            let loaded = try await ControlCurl.call("PUT", control, "/v1/scenario", body: #"{"mode": "lenient"}"#)
            #expect(loaded.status == 200)
            #expect(try Self.clock(try await ControlCurl.call("GET", control, "/v1/clock")).offset == "9h")
            #expect(try await ControlCurl.call("POST", control, "/v1/reset").status == 200)
            let after = try Self.clock(try await ControlCurl.call("GET", control, "/v1/clock"))
            #expect(after.offset == "0s" && Self.isAbout(after.now, 0))
        }
    }
}
