import Foundation
import Testing

@testable import MockAPNs

/// Time windows on the journal (issue 20, item 6): `mock-apns requests --after/--before/--last` and
/// `GET /v1/requests?after=…&before=…`, read on the mock's clock; and the one parser of typed times, `TimePoint`.
@Suite("requests time windows", .serialized)
struct RequestsTimeWindowTests {
    /// 2027-01-15T08:00:00Z, where `ManualClock` starts.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Record 1 at the clock's start, record 2 an hour later by the mock's clock (the provider token, signed on
    /// the real clock, is refused then: the records' times are what counts).
    static func pushTwiceAnHourApart(_ server: MockAPNsServer) async throws {
        _ = try await sendPush(server)
        _ = try await server.moveClock(.advance(.seconds(3600)))
        _ = try await sendPush(server)
        #expect(server.journal.count == 2)
    }

    /// The sequence numbers a `requests --json` run printed.
    static func sequences(_ output: String) -> [Int] {
        output.split(separator: "\n").compactMap { try? JSONParser.parse(String($0))["sequence"]?.doubleValue }
            .map { Int($0) }
    }

    @Test("requests --last, --before -30m, --after ISO and --after HH:MM choose records by the mock's clock")
    func commandLineWindows() async throws {
        try await withControlServer(clock: ManualClock(Self.start)) { server, control in
            try await Self.pushTwiceAnHourApart(server)
            func run(_ arguments: [String]) async throws -> [Int] {
                let result = try await CLITests.run(["requests", "--json", "--control", control.url] + arguments)
                #expect(result.status == 0, "\(arguments): \(result.errors)")
                return Self.sequences(result.output)
            }
            #expect(try await run([]) == [1, 2])
            #expect(try await run(["--last", "30m"]) == [2])
            #expect(try await run(["--after", "-30m"]) == [2])
            #expect(try await run(["--before", "-30m"]) == [1])
            #expect(try await run(["--after", "2027-01-15T08:30:00Z"]) == [2])
            #expect(try await run(["--after", "2027-01-15T09:30:00+01:00"]) == [2])
            #expect(try await run(["--before", "2027-01-15T09:00:00Z"]) == [1])
            #expect(try await run(["--after", "2027-01-15T08:00:00Z", "--before", "2027-01-15T09:00:00Z"]) == [1])
            let halfPast = Calendar.current.dateComponents([.hour, .minute], from: Self.start.addingTimeInterval(1800))
            let clock = String(format: "%02d:%02d", halfPast.hour ?? 0, halfPast.minute ?? 0)
            #expect(try await run(["--after", clock]) == [2], "--after \(clock)")
        }
    }

    @Test("a bad time is a usage error naming the option, and a 400 naming the parameter")
    func badTimes() async throws {
        try await withControlServer { _, control in
            for (arguments, message) in [
                (["--after", "25:00"], "--after: '25:00' is not a time of day"),
                (["--before", "yesterday"], "--before: expected a time of day"),
                (["--after", "5m"], "--after: a relative time is negative, before now: -5m"),
                (["--after", "2027-01-15T08:30:00"], "not an ISO 8601 time with an offset or Z"),
                (["--last", "-5m"], "--last: must not be negative"),
                (["--last", "5m", "--after", "-1m"], "--last DURATION is --after -DURATION"),
            ] {
                let result = try await CLITests.run(["requests", "--control", control.url] + arguments)
                #expect(result.status == 64, "\(arguments)")
                #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
            }
            let bad = try await ControlCurl.call("GET", control, "/v1/requests?after=soon")
            #expect(bad.status == 400)
            #expect(bad.json?["error"]?.stringValue?.hasPrefix("after: expected a time of day") == true, "\(bad.text)")
            let good = try await ControlCurl.call("GET", control, "/v1/requests?after=-5m&before=23:59:59")
            #expect(good.status == 200, "\(good.text)")
        }
    }

    @Test("GET /v1/requests takes after and before, relative ones read on the mock's clock")
    func controlAPIWindows() async throws {
        try await withControlServer(clock: ManualClock(Self.start)) { server, control in
            try await Self.pushTwiceAnHourApart(server)
            let recent = try await ControlCurl.call("GET", control, "/v1/requests?after=-30m")
            #expect(recent.json?["records"]?.arrayValue?.compactMap { $0["sequence"] } == [2], "\(recent.text)")
            let early = try await ControlCurl.call("GET", control, "/v1/requests?before=2027-01-15T08:30:00Z")
            #expect(early.json?["records"]?.arrayValue?.compactMap { $0["sequence"] } == [1], "\(early.text)")
        }
    }

    @Test("the search text's after: and before: choose records by the mock's clock; a bad time is a 400 at the word")
    func searchWindows() async throws {
        try await withControlServer(clock: ManualClock(Self.start)) { server, control in
            try await Self.pushTwiceAnHourApart(server)
            func sequences(_ search: String) async throws -> [JSONValue]? {
                let encoded = search.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? search
                let answer = try await ControlCurl.call("GET", control, "/v1/requests?q=\(encoded)")
                #expect(answer.status == 200, "\(search): \(answer.text)")
                return answer.json?["records"]?.arrayValue?.compactMap { $0["sequence"] }
            }
            #expect(try await sequences("after:-30m") == [2])
            #expect(try await sequences("-after:-30m") == [1])
            #expect(try await sequences("before:2027-01-15T08:30:00Z") == [1])
            #expect(try await sequences("after:2027-01-15T07:59:00Z before:-10m") == [1])
            let result = try await CLITests.run(
                ["requests", "--control", control.url, "--json", "--query", "after:-30m"])
            #expect(result.status == 0, "\(result.errors)")
            #expect(Self.sequences(result.output) == [2])
            let bad = try await ControlCurl.call("GET", control, "/v1/requests?q=status:4xx%20after:soon")
            #expect(bad.status == 400)
            #expect(
                bad.json?["error"]?.stringValue?.hasPrefix("q: at 'after:soon' (character 12): after: expected") == true,
                "\(bad.text)")
        }
    }

    @Test("TimePoint reads a time of day, ISO 8601 with an offset and negative durations, and resolves them")
    func timePoints() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let now = Self.start  // 08:00 UTC, 09:00 in Paris
        func date(_ text: String, _ zone: TimeZone) throws -> Date {
            try TimePoint.parse(text).get().date(now: now, timeZone: zone)
        }
        #expect(try date("16:10", utc) == Self.start.addingTimeInterval(8 * 3600 + 600))
        #expect(try date("07:30:15", utc) == Self.start.addingTimeInterval(-1785))
        #expect(try date("09:00", paris) == Self.start)
        #expect(try date("-5m", utc) == Self.start.addingTimeInterval(-300))
        #expect(try date("-90s", utc) == Self.start.addingTimeInterval(-90))
        #expect(try date("-2h", utc) == Self.start.addingTimeInterval(-7200))
        #expect(try date("2027-01-15T09:00:00+01:00", utc) == Self.start)
        #expect(try date("2027-01-15T08:00:00.500Z", utc) == Self.start.addingTimeInterval(0.5))
        #expect(try TimePoint.parse("16:10").get().description == "16:10:00")
        #expect(try TimePoint.parse("-5m").get().description == "-5m")
        for bad in ["24:00", "12:60", "1:2:3:4", "", "now", "5m", "-99999h", "2027-01-15"] {
            #expect(throws: DurationText.Problem.self, "\(bad)") { try TimePoint.parse(bad).get() }
        }
    }
}
