import Foundation
import Testing

@testable import MockAPNs

/// `expect:` and `unexpected:` in scenario files: every field, every refusal with its place, and the written form.
@Suite("Scenario expectations: loading")
struct ExpectationLoaderTests {
    static let token = MatchOperatorTests.token

    func load(_ yaml: String) throws -> Scenario {
        try ScenarioLoader.parse(yaml: yaml, sourcePath: "test.yaml", baseDirectory: "/")
    }

    /// The loader's error for `yaml` as text (`test.yaml:line:column: field: message`).
    func loadError(_ yaml: String) -> String {
        do {
            _ = try load(yaml)
        } catch let error as ScenarioError {
            return error.description
        } catch {
            return "unexpected error \(error)"
        }
        return "loaded without an error"
    }

    @Test("reads every field, with the rules' match grammar and value operators")
    func everyField() throws {
        let scenario = try load(
            """
            expect:
              - name: order alert
                match: { token: "\(Self.token)", pushType: alert, payload: { aps.alert.title: "Order ready" } }
                count: 1
                answered: 200
                within: 5s
              - match: { topic: { regex: "^com\\\\.example" } }
                count: { min: 1, max: 3 }
                answered: Unregistered
              - count: { min: 2 }
              - count: { max: 4 }
              - match: { headers: { apns-priority: "5" } }
                count: 0
              - name: trip
                sequence:
                  - { payload: { aps.event: start } }
                  - { payload: { aps.event: end } }
                within: 1m
            unexpected: fail
            """)
        let expectations = scenario.expectations
        #expect(
            expectations.map(\.name) == [
                "order alert", "expectation 2", "expectation 3", "expectation 4", "expectation 5", "trip",
            ])
        #expect(expectations[0].match.token == Self.token)
        #expect(expectations[0].match.pushType == "alert")
        #expect(expectations[0].match.payload["aps.alert.title"] == "Order ready")
        #expect(expectations[0].count == 1...1)
        #expect(expectations[0].answered == .init(status: 200))
        #expect(expectations[0].within == .seconds(5))
        #expect(expectations[0].line == 2)
        #expect(expectations[1].match.conditions[.topic] != nil)
        #expect(expectations[1].count == 1...3)
        #expect(expectations[1].answered == .init(reason: "Unregistered"))
        #expect(expectations[1].within == nil)
        #expect(expectations[2].count == 2...Int.max)
        #expect(expectations[2].match.isEmpty)
        #expect(expectations[3].count == 0...4)
        #expect(expectations[4].count == 0...0)
        #expect(expectations[4].match.headers == ["apns-priority": "5"])
        #expect(expectations[5].sequence.count == 2)
        #expect(expectations[5].match.isEmpty)
        #expect(expectations[5].within == .seconds(60))
        #expect(scenario.unexpected == .fail)
        #expect(try load("unexpected: allow").unexpected == .allow)
        #expect(try load("name: x").unexpected == .allow)
        #expect(try load("name: x").expectations.isEmpty)
    }

    @Test(
        "refuses bad entries with file, line, column, field path and a fix",
        arguments: [
            ("expect: { match: {} }", "test.yaml:1:9: expect: expected a list, got a mapping"),
            (
                "expect:\n  - mach: { topic: a.b }",
                "test.yaml:2:5: expect[0].mach: unknown field 'mach' (did you mean 'match'?); known fields: name, "
                    + "match, count, answered, within, sequence, notificationCenter"
            ),
            (
                "expect:\n  - match: { title: x }",
                "test.yaml:2:14: expect[0].match.title: unknown field 'title'; known fields: token, topic, pushType, "
                    + "headers, payload, device, channel, operation"
            ),
            (
                "expect:\n  - count: -1",
                "test.yaml:2:12: expect[0].count: must be at least 0, got -1"
            ),
            (
                "expect:\n  - count: \"2\"",
                "test.yaml:2:12: expect[0].count: expected an integer, got the string \"2\" "
                    + "(write numbers without quotes)"
            ),
            (
                "expect:\n  - count: { min: 3, max: 1 }",
                "test.yaml:2:27: expect[0].count.max: max (1) is below min (3)"
            ),
            (
                "expect:\n  - count: {}",
                "test.yaml:2:12: expect[0].count: give min, max or both (count: { min: 1, max: 3 }), or a number"
            ),
            (
                "expect:\n  - count: { least: 1 }",
                "test.yaml:2:14: expect[0].count.least: unknown field 'least'; known fields: min, max"
            ),
            (
                "expect:\n  - answered: Unregisterd",
                "test.yaml:2:15: expect[0].answered: expected a status (200, 410, ...) or an APNs reason; "
                    + "'Unregisterd' is not one (did you mean 'Unregistered'?); reason names are case-sensitive"
            ),
            (
                "expect:\n  - answered: 302",
                "test.yaml:2:15: expect[0].answered: APNs answers 200 (201 and 204 for channel operations) or an "
                    + "error status (4xx, 5xx); got 302"
            ),
            (
                "expect:\n  - answered: 700",
                "test.yaml:2:15: expect[0].answered: must be between 200 and 599, got 700"
            ),
            (
                "expect:\n  - within: 5",
                "test.yaml:2:13: expect[0].within: a duration needs a unit: ms, s, m or h (for example 5ms or 5s)"
            ),
            (
                "expect:\n  - within: 2d",
                "test.yaml:2:13: expect[0].within: expected a duration such as 250ms, 2s, 1.5s, 1m or 1h; got '2d'"
            ),
            (
                "expect:\n  - sequence: [ { topic: a.b } ]",
                "test.yaml:2:15: expect[0].sequence: a sequence needs at least 2 steps, got 1; for one request "
                    + "write match instead"
            ),
            (
                "expect:\n  - sequence: [ { topic: a.b }, { tpic: a.c } ]",
                "test.yaml:2:35: expect[0].sequence[1].tpic: unknown field 'tpic' (did you mean 'topic'?); "
                    + "known fields: token, topic, pushType, headers, payload, device, channel, operation"
            ),
            (
                "expect:\n  - match: { topic: a.b }\n    sequence: [ {}, {} ]",
                "test.yaml:2:12: expect[0].match: give match or sequence, not both: a sequence's steps are matches "
                    + "themselves"
            ),
            (
                "expect:\n  - sequence: [ {}, {} ]\n    count: 2",
                "test.yaml:3:12: expect[0].count: count is for a match, not a sequence (a sequence is expected once)"
            ),
            (
                "expect:\n  - name: a\n  - name: a",
                "test.yaml:3:11: expect[1].name: duplicate expectation name 'a'; it is already used at line 2"
            ),
            (
                "expect:\n  - name: \"\"",
                "test.yaml:2:11: expect[0].name: the expectation name must not be empty"
            ),
            (
                "expect:\n  - match: { payload: { aps.badge: { min: 5, max: 1 } } }",
                "test.yaml:2:51: expect[0].match.payload.aps.badge.max: max (1) is below min (5)"
            ),
            (
                "unexpected: deny",
                "test.yaml:1:13: unexpected: must be one of: allow, fail; got 'deny'"
            ),
        ])
    func refusals(yaml: String, message: String) {
        #expect(loadError(yaml) == message, "\(yaml)")
    }

    @Test("writes expectations back so that they reload the same, and leaves out what is default")
    func roundTrip() throws {
        let yaml = """
            expect:
              - name: order alert
                match:
                  token: "\(Self.token)"
                  topic: { regex: "^com" }
                  headers: { apns-priority: "10" }
                  payload: { aps.alert.title: "Order ready", aps.badge: { min: 1 }, aps.data: { a: 1 } }
                answered: 200
                within: 1500ms
              - count: { min: 2 }
                answered: BadDeviceToken
              - count: { min: 1, max: 3 }
              - count: 0
              - sequence:
                  - { payload: { aps.event: start } }
                  - { pushType: liveactivity }
            unexpected: fail
            """
        let scenario = try load(yaml)
        let document = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: scenario.rules, declarations: scenario
        ).document
        let reloaded = try load(document.jsonText)
        #expect(reloaded.unexpected == .fail)
        #expect(reloaded.expectations.map(\.scenarioJSON) == scenario.expectations.map(\.scenarioJSON))
        #expect(reloaded.expectations.map(\.name) == scenario.expectations.map(\.name))
        #expect(reloaded.expectations.map(\.count) == [1...1, 2...Int.max, 1...3, 0...0, 1...1])
        #expect(reloaded.expectations[0].within == .milliseconds(1500))
        #expect(reloaded.expectations[1].answered == .init(reason: "BadDeviceToken"))
        #expect(
            scenario.expectations[0].scenarioJSON.jsonText
                == #"{"name":"order alert","match":{"token":"\#(Self.token)","topic":{"regex":"^com"},"#
                + #""headers":{"apns-priority":"10"},"payload":{"aps.alert.title":"Order ready","aps.badge":{"min":1},"#
                + #""aps.data":{"a":1}}},"count":1,"answered":200,"within":"1500ms"}"#)
        #expect(
            scenario.expectations[4].scenarioJSON.jsonText
                == #"{"name":"expectation 5","sequence":[{"payload":{"aps.event":"start"}},"#
                + #"{"pushType":"liveactivity"}]}"#)

        let plain = ScenarioSnapshot(name: "x", world: World(), rules: []).document
        #expect(plain["expect"] == nil && plain["unexpected"] == nil)
    }
}
