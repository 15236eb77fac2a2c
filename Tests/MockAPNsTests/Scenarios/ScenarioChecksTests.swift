import Foundation
import Testing

@testable import MockAPNs

/// The scenario's `checks:`: how it loads, every mistake refused at its line with its field path, and written back.
@Suite("Scenario checks")
struct ScenarioChecksTests {
    func load(_ yaml: String) throws(ScenarioError) -> [ProviderCheck] {
        try ScenarioLoader.parse(yaml: yaml, sourcePath: "checks.yaml", baseDirectory: "/").checks
    }

    /// The error loading `yaml` gives, or `nil` (recorded as an issue) when it loads.
    func loadError(_ yaml: String) -> ScenarioError? {
        do {
            _ = try load(yaml)
        } catch {
            return error
        }
        Issue.record("the scenario loaded without an error")
        return nil
    }

    @Test("checks: all turns on every check with its defaults")
    func all() throws {
        let checks = try load("checks: all\n")
        #expect(checks.map(\.kind) == ProviderCheck.Kind.allCases)
        #expect(checks.allSatisfy { $0.minimumBackoff == .seconds(1) && $0.maxConnections == 4 })
        #expect(checks.allSatisfy { $0.maxTokenAge == .seconds(3600) })
        #expect(try load("name: x\n").isEmpty)
    }

    @Test("a list of names and one-key mappings with parameters, in file order, with their lines")
    func list() throws {
        let yaml = """
            checks:
              - stops-after-unregistered
              - backs-off: { minimum: 2.5s }
              - reuses-connections: { maxConnections: 2 }
              - token-refresh:
                  maxAge: 20m
              - no-unexpected-errors:
            """
        let checks = try load(yaml)
        #expect(
            checks.map(\.kind) == [
                .stopsAfterUnregistered, .backsOff, .reusesConnections, .tokenRefresh, .noUnexpectedErrors,
            ])
        #expect(checks[1].minimumBackoff == .milliseconds(2500))
        #expect(checks[2].maxConnections == 2)
        #expect(checks[3].maxTokenAge == .seconds(1200))
        #expect(checks.map(\.line) == [2, 3, 4, 5, 7])
    }

    @Test(
        "each bad input is refused at its line and column with its field path",
        arguments: [
            ("checks: some", "checks.yaml:1:9: checks: expected 'all' or a list of checks, got 'some'"),
            ("checks: { backs-off: {} }", "checks.yaml:1:9: checks: expected 'all' or a list of checks, got a mapp"),
            ("checks:\n  - backs-of", "checks.yaml:2:5: checks[0]: unknown check 'backs-of' (did you mean 'backs-off'"),
            ("checks:\n  - all", "checks[0]: unknown check 'all' ('all' stands alone: 'checks: all')"),
            (
                "checks:\n  - token-refresh\n  - backs-off\n  - token-refresh",
                "checks.yaml:4:5: checks[2]: the check 'token-refresh' is listed twice (first on line 2)"
            ),
            (
                "checks:\n  - backs-off: { minmum: 2s }",
                "checks.yaml:2:18: checks[0].backs-off.minmum: unknown field 'minmum' (did you mean 'minimum'?)"
            ),
            ("checks:\n  - backs-off: { minimum: 2 }", "checks.yaml:2:27: checks[0].backs-off.minimum: a duration"),
            ("checks:\n  - backs-off: { minimum: 2h }", "checks[0].backs-off.minimum: must be from 1ms to 1h, got '2h"),
            ("checks:\n  - backs-off: { minimum: 0ms }", "checks[0].backs-off.minimum: must be from 1ms to 1h, got '0"),
            (
                "checks:\n  - reuses-connections: { maxConnections: 0 }",
                "checks[0].reuses-connections.maxConnections: must be between 1 and 1000000, got 0"
            ),
            (
                "checks:\n  - reuses-connections: { maxConnections: \"2\" }",
                "checks[0].reuses-connections.maxConnections: expected an integer, got the string \"2\""
            ),
            ("checks:\n  - token-refresh: { maxAge: 61m }", "checks[0].token-refresh.maxAge: must be from 1s to 1h"),
            (
                "checks:\n  - stops-after-unregistered: { minimum: 1s }",
                "checks.yaml:2:31: checks[0].stops-after-unregistered: the check 'stops-after-unregistered' takes no "
                    + "parameters"
            ),
            (
                "checks:\n  - { backs-off: { minimum: 1s }, token-refresh: {} }",
                "checks.yaml:2:5: checks[0]: a check with parameters is a mapping of its name to them"
            ),
            ("checks:\n  - [backs-off]", "checks[0]: expected a check's name or '- name: { parameters }', got a list"),
            ("checks:\n  - backs-off: 2s", "checks[0].backs-off: expected a mapping with fields minimum, got '2s'"),
        ])
    func badInput(yaml: String, message: String) throws {
        let error = try #require(loadError(yaml))
        #expect(error.description.contains(message), "\(error)")
        #expect(error.line != nil && error.column != nil, "\(error)")
    }

    @Test("the snapshot writes checks back, and a written scenario loads to the same checks")
    func roundTrip() throws {
        let yaml = """
            checks:
              - backs-off: { minimum: 1500ms }
              - reuses-connections: { maxConnections: 1 }
              - token-refresh: { maxAge: 30m }
              - stops-after-unregistered
              - no-retry-on-permanent-errors
            """
        let scenario = try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
        let document = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: scenario.rules, declarations: scenario
        ).document
        #expect(document["checks"]?.arrayValue?.count == 5)
        #expect(document["checks"]?.arrayValue?[0]["backs-off"]?["minimum"] == "1500ms")
        #expect(document["checks"]?.arrayValue?[3] == "stops-after-unregistered")
        let reloaded = try ScenarioLoader.parse(yaml: document.jsonText, sourcePath: nil, baseDirectory: "/")
        func unlined(_ checks: [ProviderCheck]) -> [ProviderCheck] {
            checks.map { check in
                var check = check
                check.line = 0
                return check
            }
        }
        #expect(unlined(reloaded.checks) == unlined(scenario.checks))
        let none = ScenarioSnapshot(name: "n", world: World(), rules: []).document
        #expect(none["checks"] == nil)
    }

    @Test("GET /v1/scenario shows the running scenario's checks")
    func snapshotOverControlAPI() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.checks = [ProviderCheck(.backsOff, minimumBackoff: .seconds(3)), ProviderCheck(.tokenRefresh)]
        try await withTestServer(scenario: scenario) { server in
            let document = try await server.scenario().document
            let checks = document["checks"]?.arrayValue ?? []
            #expect(checks.count == 2)
            #expect(checks.first?["backs-off"]?["minimum"] == "3000ms", "\(document.jsonText)")
            #expect(checks.last == "token-refresh")
        }
    }

    @Test("every YAML block of the checks section of scenarios/README.md loads, with checks")
    func documentedSnippets() throws {
        let page = AuthTestFiles.packageRoot.appendingPathComponent("scenarios/README.md")
        let markdown = try String(contentsOf: page, encoding: .utf8)
        let section = try #require(markdown.components(separatedBy: "\n### `checks`\n").dropFirst().first)
        // The section ends at the next heading, of its level or above (`### tokenUpload` follows it).
        let text = (section.components(separatedBy: "\n## ").first ?? section).components(separatedBy: "\n### ")[0]
        let blocks = DocSnippet.parse(text, file: "scenarios/README.md").filter { $0.language == "yaml" }
        #expect(blocks.count >= 2)
        for block in blocks {
            let checks = try load(block.text)
            #expect(!checks.isEmpty, "\(block.text)")
        }
    }
}
