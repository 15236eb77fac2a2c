import Foundation
import Testing

@_spi(Fuzzing) @testable import MockAPNs

/// `since` and a rule's `timestamp` are range-checked: found by the scenario fuzz target, a `since` of 1e300
/// seconds loaded and then trapped the server when the time was written (GET /v1/scenario, a 410's timestamp), and a
/// `since` before 1582 came back from a snapshot days off (Julian calendar in, Gregorian out).
@Suite("Scenario times: since and timestamp lie in 1970...9999")
struct ScenarioDateRangeTests {
    func device(since: String) -> String {
        "devices:\n  - token: aa\n    state: unregistered\n    since: \"\(since)\"\n"
    }

    @Test(
        "a time outside 1970...9999 is refused with the field and the range",
        arguments: ["1e300", "253402300800", "1013-11-06T22:15:00Z", "1969-12-31T23:59:59Z"])
    func outOfRange(since: String) throws {
        let error = try #require(throws: ScenarioError.self) {
            try ScenarioLoader.parse(yaml: device(since: since), sourcePath: nil, baseDirectory: "/")
        }
        #expect(error.field == "devices[0].since")
        #expect(error.line == 4)
        #expect(error.message.hasPrefix("must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z; got "))

        let rule = "rules:\n  - respond: { reason: Unregistered, timestamp: \"\(since)\" }\n"
        let ruleError = try #require(throws: ScenarioError.self) {
            try ScenarioLoader.parse(yaml: rule, sourcePath: nil, baseDirectory: "/")
        }
        #expect(ruleError.field == "rules[0].respond.timestamp")
    }

    @Test("the ends of the range load, and their snapshots load back the same", arguments: [
        "0", "1970-01-01T00:00:00Z", "253402300799", "9999-12-31T23:59:59Z", "2026-11-01T08:00:00Z",
    ])
    func inRange(since: String) throws {
        #expect(try FuzzTarget.runScenario(Array(device(since: since).utf8)) != nil)
    }
}
