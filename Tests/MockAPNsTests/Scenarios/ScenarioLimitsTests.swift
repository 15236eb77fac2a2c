import Foundation
import Testing

@testable import MockAPNs

/// Every number a scenario can hold is range-checked with an error at its line, and no input can trap.
@Suite("Scenario limits")
struct ScenarioLimitsTests {
    /// The error parsing `yaml` gives, or `nil` (recorded as an issue) when it loads.
    func parseError(_ yaml: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, sourcePath: "limits.yaml", baseDirectory: "/")
        } catch {
            return error
        }
        Issue.record("the scenario loaded without an error")
        return nil
    }

    @Test(
        "a delay beyond a day, negative, NaN or infinite is an error naming the field and the range",
        arguments: [
            ("99999999999999999999999m", "must be at most 24h, got '99999999999999999999999m'"),
            ("25h", "must be at most 24h"),
            ("86400001ms", "must be at most 24h"),
            ("1e400s", "expected a duration"),
            ("-1s", "must not be negative"),
            ("nanms", "expected a duration"),
            ("infs", "expected a duration"),
        ])
    func delayRange(text: String, message: String) throws {
        let error = try #require(parseError("rules:\n  - respond: { status: 200 }\n    delay: \(text)\n"))
        #expect(error.description.hasPrefix("limits.yaml:3:12: rules[0].delay: "), "\(error)")
        #expect(error.message.contains(message), "\(error)")
        let respond = try #require(parseError("rules:\n  - respond: { status: 200, delay: \"\(text)\" }\n"))
        #expect(respond.field == "rules[0].respond.delay")
    }

    @Test("delays up to a day load, in ms, s, m or h")
    func delaysThatLoad() throws {
        let yaml = """
            rules:
              - { name: a, respond: { status: 200 }, delay: 24h }
              - { name: b, fault: goaway, delay: 1440m }
              - { name: c, respond: { status: 200, delay: 1.5s } }
              - { name: d, fault: reset-stream, delay: 0ms }
            """
        let rules = try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/").rules
        let delays: [Duration?] = rules.map {
            switch $0.action {
            case .respond(_, _, _, let delay): delay
            case .fault(_, let delay): delay
            }
        }
        #expect(delays == [.seconds(86_400), .seconds(86_400), .milliseconds(1500), .zero])
    }

    @Test("an alias bomb in match.payload stops within the expansion budget at the line it ran out")
    func aliasBomb() throws {
        let started = ContinuousClock.now
        let error = try #require(parseError(ControlLimitsTests.aliasBomb(levels: 9)))
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(error.message.contains("expands to more than 100000 values or 1MiB of text"), "\(error)")
        #expect(error.line != nil && error.field.hasPrefix("rules[0].match.payload.p"), "\(error)")
        // One level fewer of a smaller fan-out is fine: 4^5 values.
        var yaml = "rules:\n  - respond: { status: 200 }\n    match:\n      payload:\n        p0: &a0 [1, 2, 3, 4]\n"
        for level in 1..<5 {
            let items = Array(repeating: "*a\(level - 1)", count: 4).joined(separator: ", ")
            yaml += "        p\(level): &a\(level) [\(items)]\n"
        }
        #expect(throws: Never.self) { try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/") }
    }

    @Test("aliases repeating a long string count its bytes against the budget")
    func aliasTextBudget() throws {
        let long = String(repeating: "z", count: 300_000)
        let yaml = "rules:\n  - respond: { status: 200 }\n    match:\n      payload:\n        a: &s \"\(long)\"\n"
            + "        b: [*s, *s, *s, *s]\n"
        let error = try #require(parseError(yaml))
        #expect(error.message.contains("1MiB of text"), "\(error)")
    }

    @Test(
        "times outside 1970-9999 are errors, so no answer's timestamp can overflow",
        arguments: [
            "rules:\n  - respond: { reason: Unregistered, timestamp: 1e300 }\n",
            "rules:\n  - respond: { reason: Unregistered, timestamp: 1900-01-01T00:00:00Z }\n",
            "devices:\n  - { token: abcd, state: unregistered, since: 99999999999999 }\n",
        ])
    func dateRange(yaml: String) throws {
        let error = try #require(parseError(yaml))
        #expect(error.message.contains("must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z"), "\(error)")
    }

    @Test("journal capacity and maxBytes are range-checked; sizes take KiB, MiB and GiB")
    func journalSettings() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: "journal: { capacity: 500, maxBytes: 32MiB }", sourcePath: nil, baseDirectory: "/")
        #expect(scenario.journalCapacity == 500)
        #expect(scenario.journalMaxBytes == 32 << 20)
        let plain = try ScenarioLoader.parse(
            yaml: "journal: { maxBytes: 1048576 }", sourcePath: nil, baseDirectory: "/")
        #expect(plain.journalMaxBytes == 1 << 20)
        #expect(Scenario(name: "x").journalMaxBytes == 256 << 20)
        let cases: [(String, String)] = [
            ("journal: { capacity: 0 }", "journal.capacity: must be between 1 and 10000000, got 0"),
            ("journal: { capacity: 99999999999 }", "between 1 and 10000000"),
            ("journal: { maxBytes: 1KiB }", "journal.maxBytes: must be between 64KiB and 64GiB, got '1KiB'"),
            ("journal: { maxBytes: 99999999999999999999GiB }", "must be between 64KiB and 64GiB"),
            ("journal: { maxBytes: 9999999999GiB }", "must be between 64KiB and 64GiB"),
            ("journal: { maxBytes: lots }", "expected a size such as 4096, 512KiB, 256MiB or 1GiB"),
            ("journal: { maxBytes: -5MiB }", "expected a size"),
        ]
        for (yaml, message) in cases {
            let error = try #require(parseError(yaml))
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test("token times in fidelity are at most ten years")
    func fidelityTimes() throws {
        for field in ["maxFutureIssuedAt", "providerTokenLifetime", "providerTokenMinimumInterval"] {
            let error = try #require(parseError("fidelity: { \(field): 9223372036854775807 }"))
            #expect(error.field == "fidelity.\(field)")
            #expect(error.message.contains("315360000"), "\(error)")
        }
    }
}

@Suite("Duration and size text")
struct DurationTextTests {
    @Test("reads every unit and refuses what it cannot hold without trapping")
    func parse() throws {
        let day = Duration.seconds(86_400)
        #expect(try DurationText.parse("250ms", maximum: day).get() == .milliseconds(250))
        #expect(try DurationText.parse(" 1.5s ", maximum: day).get() == .milliseconds(1500))
        #expect(try DurationText.parse("2m", maximum: day).get() == .seconds(120))
        #expect(try DurationText.parse("1h", maximum: day).get() == .seconds(3600))
        for text in ["1e308h", "9223372036854775807s", "99999999999999999999999m", "25h"] {
            guard case .failure(let problem) = DurationText.parse(text, maximum: day) else {
                Issue.record("\(text) was accepted")
                continue
            }
            #expect(problem.message == "must be at most 24h, got '\(text)'")
        }
        #expect(throws: DurationText.Problem.self) { try DurationText.parse("5", maximum: day).get() }
        #expect(throws: DurationText.Problem.self) { try DurationText.parse("", maximum: day).get() }
        #expect(throws: DurationText.Problem.self) { try DurationText.parse("s", maximum: day).get() }
    }

    @Test("writes durations, even Duration's extremes, without trapping")
    func text() {
        #expect(DurationText.text(.seconds(86_400)) == "24h")
        #expect(DurationText.text(.seconds(600)) == "10m")
        #expect(DurationText.text(.milliseconds(1500)) == "1.5s")
        #expect(DurationText.milliseconds(.seconds(Int64.max)) == Int64.max)
        #expect(DurationText.milliseconds(.seconds(Int64.min)) == Int64.min)
        #expect(ControlDuration.text(.seconds(Int64.max)).hasSuffix("s"))
        #expect(ScriptedRule.durationText(.seconds(Int64.max)) == "\(Int64.max)ms")
    }

    @Test("reads sizes with units within a range")
    func sizes() throws {
        let range = 1...(1 << 40)
        #expect(try ByteSizeText.parse("4096", in: range).get() == 4096)
        #expect(try ByteSizeText.parse("512KiB", in: range).get() == 512 << 10)
        #expect(try ByteSizeText.parse("1GiB", in: range).get() == 1 << 30)
        #expect(throws: DurationText.Problem.self) { try ByteSizeText.parse("2TiB", in: range).get() }
        #expect(throws: DurationText.Problem.self) { try ByteSizeText.parse("9223372036854775807KiB", in: range).get() }
        #expect(throws: DurationText.Problem.self) { try ByteSizeText.parse("1.5MiB", in: range).get() }
        #expect(ByteSizeText.text(256 << 20) == "256MiB")
        #expect(ByteSizeText.text(4100) == "4100")
    }
}
