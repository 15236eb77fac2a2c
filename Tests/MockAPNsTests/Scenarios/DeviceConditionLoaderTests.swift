import Foundation
import Testing

@testable import MockAPNs

/// `device:` in an `expect:` match: what the simulated phone did. Read, refused with its place, refused in rules,
/// and written back.
@Suite("Scenario expectations: device conditions")
struct DeviceConditionLoaderTests {
    let loader = ExpectationLoaderTests()

    @Test("reads outcome (one or a list), reason as a literal or an operator, and warnings: none")
    func reads() throws {
        let scenario = try loader.load(
            """
            expect:
              - match: { pushType: liveactivity, device: { outcome: applied, warnings: none } }
              - match: { device: { outcome: [dropped, ignored], reason: { regex: "content-state" } } }
              - sequence:
                  - { device: { outcome: started } }
                  - { device: { outcome: ended, reason: "activity ended" } }
            """)
        let first = try #require(scenario.expectations[0].match.device)
        #expect(first.outcomes == [.applied] && first.noWarnings && first.reason == nil)
        #expect(scenario.expectations[0].match.pushType == "liveactivity")
        let second = try #require(scenario.expectations[1].match.device)
        #expect(second.outcomes == [.dropped, .ignored] && !second.noWarnings)
        #expect(second.reason?.matches(text: "content-state.status: expected String") == true)
        #expect(second.reason?.matches(text: "activity ended") == false)
        let steps = scenario.expectations[2].sequence.map(\.device)
        #expect(steps.map { $0?.outcomes } == [[.started], [.ended]])
        #expect(steps[1]?.reason?.matches(text: "activity ended") == true)
        #expect(steps[1]?.reason?.matches(text: "activity ended at once") == false)
        #expect(scenario.expectations[0].match.text == "with pushType liveactivity, phone applied with no warnings")
        #expect(
            scenario.expectations[1].match.text
                == #"any request, phone dropped or ignored, reason {"regex":"content-state"}"#)
    }

    @Test(
        "refuses a bad device condition with file, line and field",
        arguments: [
            (
                "expect:\n  - match: { device: { outcome: aplied } }",
                "test.yaml:2:33: expect[0].match.device.outcome: unknown device outcome 'aplied' (did you mean "
                    + "'applied'?); outcomes: started, applied, ended, ignored, dropped, throttled, stored, "
                    + "delivered, replaced, expired, discarded, shown, shownQuietly, withheld, notShown, launched, "
                    + "held, notLaunched, reported, terminated"
            ),
            (
                "expect:\n  - match: { device: { outcome: [applied, dropd] } }",
                "test.yaml:2:43: expect[0].match.device.outcome[1]: unknown device outcome 'dropd' (did you mean "
                    + "'dropped'?); outcomes: started, applied, ended, ignored, dropped, throttled, stored, "
                    + "delivered, replaced, expired, discarded, shown, shownQuietly, withheld, notShown, launched, "
                    + "held, notLaunched, reported, terminated"
            ),
            (
                "expect:\n  - match: { device: { outcome: [applied, applied] } }",
                "test.yaml:2:43: expect[0].match.device.outcome[1]: the outcome applied is given twice"
            ),
            (
                "expect:\n  - match: { device: applied }",
                "test.yaml:2:22: expect[0].match.device: expected a mapping such as { outcome: applied }, got "
                    + "'applied'; fields: outcome, rule, fired, reason, warnings, final, count"
            ),
            (
                "expect:\n  - match: { device: { reason: x } }",
                "test.yaml:2:22: expect[0].match.device: give at least one of outcome (what the phone did), rule (the "
                    + "rule that decided) or fired (rules that fired), such as { outcome: shown } or { rule: "
                    + "background-force-quit }"
            ),
            (
                "expect:\n  - match: { device: { outcome: applied, warnings: 0 } }",
                "test.yaml:2:52: expect[0].match.device.warnings: warnings takes only none (the phone must have "
                    + "seen nothing wrong), got '0'"
            ),
            (
                "expect:\n  - match: { device: { outcome: dropped, reason: { min: 1 } } }",
                "test.yaml:2:50: expect[0].match.device.reason: min and max compare numbers; a device reason is "
                    + "text: use regex, oneOf or equals"
            ),
            (
                "expect:\n  - match: { device: { outcome: dropped, reasn: x } }",
                "test.yaml:2:42: expect[0].match.device.reasn: unknown field 'reasn' (did you mean 'reason'?); "
                    + "known fields: outcome, rule, fired, reason, warnings, final, count"
            ),
            (
                "rules:\n  - match: { device: { outcome: applied } }\n    respond: { status: 200 }",
                "test.yaml:2:22: rules[0].match.device: a rule cannot match on device: the phone decides after "
                    + "APNs answers, and the rule decides that answer; use device: in an expect: entry's match instead"
            ),
        ])
    func refusals(yaml: String, message: String) {
        #expect(loader.loadError(yaml) == message, "\(yaml)")
    }

    @Test("writes device conditions back so that they reload the same")
    func roundTrip() throws {
        let scenario = try loader.load(
            """
            expect:
              - match: { device: { outcome: applied, warnings: none } }
              - match: { device: { outcome: [dropped, ignored], reason: { regex: "decode" } } }
              - match: { device: { outcome: ended, reason: "activity ended" } }
            """)
        let written = scenario.expectations.map { $0.match.scenarioJSON.jsonText }
        #expect(
            written == [
                #"{"device":{"outcome":"applied","warnings":"none"}}"#,
                #"{"device":{"outcome":["dropped","ignored"],"reason":{"regex":"decode"}}}"#,
                #"{"device":{"outcome":"ended","reason":"activity ended"}}"#,
            ])
        let document = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: scenario.rules, declarations: scenario
        ).document
        let reloaded = try loader.load(document.jsonText)
        #expect(reloaded.expectations.map(\.scenarioJSON) == scenario.expectations.map(\.scenarioJSON))
    }

    @Test("a request alone never passes a device condition; the in-process API refuses a rule with one")
    func requestWithoutDevice() async throws {
        var match = RuleMatch()
        match.device = DeviceCondition([.applied])
        var payload: JSONValue??
        let request = APNsRequest(method: "POST", path: "/3/device/\(ExpectationLoaderTests.token)")
        #expect(!match.matches(request.content, payload: &payload))
        #expect(match.mismatches(request.content, payload: &payload) == [.device])
        #expect(DeviceCondition([.applied]).passes(DeviceOutcome(.applied)))
        #expect(!DeviceCondition([.applied], noWarnings: true).passes(DeviceOutcome(.applied, warnings: ["late"])))
        #expect(!DeviceCondition([.applied]).passes(nil))

        try await withTestServer { server in
            await #expect(throws: MockAPNsControlError.self) {
                try await server.addRules([ScriptedRule(name: "x", match: match, action: .fault(.goaway, delay: nil))])
            }
            #expect(server.engine.rules.rules.isEmpty)
        }
    }
}
