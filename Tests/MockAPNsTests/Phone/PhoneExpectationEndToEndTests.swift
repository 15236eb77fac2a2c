import Foundation
import Testing

@testable import MockAPNs

/// Assertions on the phone (issue 23 item 5): `expect:` takes `device: { outcome, rule, fired }`, checked by the
/// one expectation checker, and the search's `device:` and `device-rule:` words match every push type.
@Suite("phone: expectations and search end to end", .serialized)
struct PhoneExpectationEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        apps:
          - { bundleID: com.example.app, sounds: [chime.caf] }
        phones:
          swiped: { apps: { com.example.app: { state: forceQuit } } }
        devices:
          - { token: \(t(80)), phone: swiped }
        expect:
          - name: the silent push reached a force-quit app
            match: { device: { outcome: notLaunched, rule: background-force-quit } }
          - name: an alert was shown
            match: { pushType: alert, device: { outcome: shown } }
            count: { min: 1 }
          - name: every sound is bundled
            match: { device: { fired: sound-not-bundled } }
            count: 0
          - name: a launch decided by either rule
            match: { device: { rule: [background-launched, background-foreground] } }
          - name: a shown alert that also launched the app
            match: { device: { outcome: shown, fired: [alert-shown, background-launched] } }
        """

    @Test("expect: passes on the rule that decided and the rules that fired, and names the rules in a near miss")
    func expectations() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            _ = try await PhonePush.send(
                server, to: Self.t(80), PhonePush.background, type: "background", priority: "5")
            _ = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert(#""sound":"bell.caf""#))
            _ = try await PhonePush.send(server, to: Self.t(2), PhonePush.background, type: "background", priority: "5")
            let report = server.verify(startedAt: nil)
            let items = Dictionary(uniqueKeysWithValues: report.items.map { ($0.name, $0) })
            #expect(items["the silent push reached a force-quit app"]?.passed == true)
            #expect(items["an alert was shown"]?.passed == true)
            #expect(items["a launch decided by either rule"]?.passed == true)
            let sounds = try #require(items["every sound is bundled"])
            #expect(!sounds.passed && sounds.records == [2], "\(sounds)")
            let both = try #require(items["a shown alert that also launched the app"])
            #expect(!both.passed)
            let nearest = try #require(both.details.first { $0.hasPrefix("Nearest: ") })
            #expect(
                nearest.contains("(rules: background-force-quit)")
                    && nearest.contains("(expected shown having fired alert-shown and background-launched)"),
                "\(nearest)")
            _ = try await PhonePush.send(server, to: Self.t(3), PhonePush.alert(#""content-available":1"#))
            let again = server.verify(startedAt: nil)
            #expect(again.items.first { $0.name == "a shown alert that also launched the app" }?.passed == true)
        }
    }

    @Test("a device condition is refused without outcome, rule or fired, or with a rule id that does not exist")
    func refusals() throws {
        func error(_ device: String) -> ScenarioError? {
            ScenarioText.error("expect:\n  - { name: x, match: { device: \(device) } }\n", file: "e.yaml")
        }
        #expect(error("{ reason: x }")?.message.hasPrefix("give at least one of outcome") == true)
        let typo = try #require(error("{ rule: background-forcequit }"))
        #expect(
            typo.field == "expect[0].match.device.rule" && typo.message.contains("did you mean 'background-force-quit'")
        )
        #expect(error("{ fired: [sound-off, sound-off] }")?.message.contains("given twice") == true)
        #expect(error("{ fired: [] }")?.message.contains("at least one rule") == true)
        let loaded = try ScenarioText.load(Self.world)
        let written = try ScenarioText.load(
            "expect: " + JSONValue.array(loaded.expectations.map(\.scenarioJSON)).jsonText + "\n")
        #expect(written.expectations.map(\.scenarioJSON) == loaded.expectations.map(\.scenarioJSON))
        #expect(
            loaded.expectations[4].scenarioJSON["match"]?["device"]
                == .object([("outcome", "shown"), ("fired", ["alert-shown", "background-launched"])]))
    }

    @Test("the search's device: takes every outcome and device-rule: a rule that decided or fired")
    func search() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            _ = try await PhonePush.send(
                server, to: Self.t(80), PhonePush.background, type: "background", priority: "5")
            _ = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert(#""sound":"bell.caf""#))
            _ = try await PhonePush.send(server, to: Self.t(1), #"{"aps":{}}"#)
            func sequences(_ query: String) async throws -> [String] {
                let answer = try await ControlCurl.call("GET", control, "/v1/requests?q=\(query)")
                #expect(answer.status == 200, "\(query): \(answer.text)")
                return answer.json?["records"]?.arrayValue?.compactMap { $0["sequence"]?.scalarText } ?? []
            }
            #expect(try await sequences("device:notLaunched") == ["1"])
            #expect(try await sequences("device:notShown") == ["3"])
            #expect(try await sequences("device-rule:background-force-quit") == ["1"])
            #expect(try await sequences("device-rule:alert-shown") == ["2"], "a rule in the trace")
            #expect(try await sequences("device-rule:sound-not-bundled") == ["2"])
            #expect(try await sequences("-device-rule:alert-shown") == ["1", "3"])
            let typo = try await ControlCurl.call("GET", control, "/v1/requests?q=device-rule:alert-show")
            #expect(typo.status == 400 && typo.error?.contains("did you mean 'alert-shown'") == true, "\(typo.text)")
            let url = control.url
            let cli = try await CLITests.run(
                ["requests", "--query", "device-rule:nothing-to-show", "--json", "--control-url", url])
            #expect(cli.status == 0 && cli.output.split(separator: "\n").count == 1, "\(cli.output)\(cli.errors)")
        }
    }
}
