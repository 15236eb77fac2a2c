import Foundation
import Testing

@testable import MockAPNs

/// `token: { issuedFrom: …, start: n }` in an `expect:` match: read, refused with its place, refused in rules,
/// written back, and checked against the tokens a run's `start` records issued.
@Suite("Scenario expectations: issuedFrom tokens")
struct IssuedTokenConditionTests {
    let loader = ExpectationLoaderTests()

    static let pushToStart = String(repeating: "ab", count: 80)
    static let issuedFirst = String(repeating: "01", count: 80)
    static let issuedSecond = String(repeating: "02", count: 80)

    @Test("reads issuedFrom with and without start, and writes it back so that it reloads the same")
    func reads() throws {
        let scenario = try loader.load(
            """
            expect:
              - match: { token: { issuedFrom: \(Self.pushToStart.uppercased()), start: 2 }, pushType: liveactivity }
              - sequence:
                  - { token: \(Self.pushToStart) }
                  - { token: { issuedFrom: \(Self.pushToStart) } }
            """)
        let first = try #require(scenario.expectations[0].match.issuedToken)
        #expect(first.pushToStartToken == Self.pushToStart && first.start == 2)
        #expect(scenario.expectations[0].match.token == nil)
        #expect(scenario.expectations[1].sequence[1].issuedToken?.start == nil)
        #expect(
            scenario.expectations[0].match.text
                == "to the update token of start 2 from ababab…ababab with pushType liveactivity")
        #expect(
            scenario.expectations[0].match.scenarioJSON.jsonText
                == #"{"token":{"issuedFrom":"\#(Self.pushToStart)","start":2},"pushType":"liveactivity"}"#)
        let document = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: scenario.rules, declarations: scenario
        ).document
        let reloaded = try loader.load(document.jsonText)
        #expect(reloaded.expectations.map(\.scenarioJSON) == scenario.expectations.map(\.scenarioJSON))
    }

    @Test(
        "refuses a bad issuedFrom with file, line and field, and in rules",
        arguments: [
            (
                "expect:\n  - match: { token: { issuedFrom: xyz } }",
                "test.yaml:2:35: expect[0].match.token.issuedFrom: must be hex digits (0-9, a-f); found 'x' at "
                    + "character 1"
            ),
            (
                "expect:\n  - match: { token: { issuedFrom: abab, start: 0 } }",
                "test.yaml:2:48: expect[0].match.token.start: must be between 1 and 1000000, got 0"
            ),
            (
                "expect:\n  - match: { token: { start: 1 } }",
                "test.yaml:2:21: expect[0].match.token.issuedFrom: missing required field 'issuedFrom'"
            ),
            (
                "expect:\n  - match: { token: { issuedFrom: abab, strat: 1 } }",
                "test.yaml:2:41: expect[0].match.token.strat: unknown field 'strat' (did you mean 'start'?); known "
                    + "fields: issuedFrom, start"
            ),
            (
                "rules:\n  - match: { token: { issuedFrom: abab } }\n    respond: { status: 200 }",
                "test.yaml:2:21: rules[0].match.token: a rule cannot match on issuedFrom: the phone issues the token "
                    + "after APNs answers the start, and the check finds it in the run's records; use issuedFrom in "
                    + "an expect: entry's match instead"
            ),
        ])
    func refusals(yaml: String, message: String) {
        #expect(loader.loadError(yaml) == message, "\(yaml)")
    }

    /// A journal record of a push to `token` with the phone's `device` outcome.
    static func record(_ sequence: UInt64, to token: String, _ device: DeviceOutcome?) -> JournalRecord {
        var record = ProviderCheckTests.record(sequence, at: Double(sequence), token: token)
        record.device = device
        return record
    }

    @Test("matches the tokens the run's starts to that push-to-start token issued, the nth start's with start: n")
    func checksAgainstTheRun() throws {
        let scenario = try loader.load(
            """
            expect:
              - name: any
                match: { token: { issuedFrom: \(Self.pushToStart) } }
                count: 2
              - name: second
                match: { token: { issuedFrom: \(Self.pushToStart), start: 2 } }
              - name: third
                match: { token: { issuedFrom: \(Self.pushToStart), start: 3 } }
                count: 0
            """)
        let records = [
            Self.record(
                1, to: Self.pushToStart, DeviceOutcome(.started, activityID: "a1", updateToken: Self.issuedFirst)),
            Self.record(2, to: Self.issuedFirst, DeviceOutcome(.applied, activityID: "a1")),
            Self.record(
                3, to: Self.pushToStart, DeviceOutcome(.started, activityID: "a2", updateToken: Self.issuedSecond)),
            Self.record(4, to: Self.issuedSecond.uppercased(), DeviceOutcome(.applied, activityID: "a2")),
            Self.record(5, to: String(repeating: "03", count: 80), nil),
        ]
        let report = scenario.verify(records, startedAt: ProviderCheckTests.start)
        #expect(report.items.map(\.passed) == [true, true, true], "\(report)")
        #expect(report.items.map(\.records) == [[2, 4], [4], []])
        // With no start in the run, nothing matches, and the near miss says what was asked.
        let none = scenario.verify([records[1]], startedAt: ProviderCheckTests.start)
        #expect(!none.items[0].passed)
        #expect(
            none.items[0].details.contains {
                $0.contains("token was \(Self.issuedFirst) (expected an update token issued from ababab…ababab)")
            }, "\(none)")
    }
}
