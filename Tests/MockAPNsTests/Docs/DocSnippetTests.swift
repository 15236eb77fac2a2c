import Foundation
import Testing

/// Every fenced block of README.md, scenarios/README.md and docs/*.md is run (or checked) as a reader would:
/// shell and Python blocks against a real `mock-apns serve`, YAML with `mock-apns check`, JSON parsed. The
/// rules and the `doc-test` directives are in `DocSnippet`.
/// Serialized: each block starts a server and a script; run side by side on a 2-core machine they would slow the
/// timing-sensitive tests of other suites.
@Suite("documented snippets", .serialized)
struct DocSnippetTests {
    @Test(
        "every block is runnable or marked with a reason, and every runnable block works",
        arguments: DocSnippet.all().filter { !$0.needsVenv }
    )
    func snippet(_ snippet: DocSnippet) async throws {
        try await check(snippet)
    }

    @Test("the documented ports become the server's in one pass, whatever digits the server's ports have")
    func portSubstitution() {
        let text = "apns :2197 control :2190 channels :2195 again 2190"
        let ports = ["2197": 42190, "2190": 42195, "2195": 40747]
        #expect(
            DocSnippetRunner.substitutingPorts(in: text, ports)
                == "apns :42190 control :42195 channels :40747 again 42195")
        #expect(DocSnippetRunner.substitutingPorts(in: "no ports, 219, 21970", ports) == "no ports, 219, 421900")
    }

    /// Python blocks, and shell blocks that run `python3`, need the clients venv (`requests`), as
    /// ThirdPartyClientTests do: skipped without it, except in CI, where a missing venv fails.
    @Test(
        "every Python block, and every shell block that runs python3, works",
        .enabled(
            if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
            "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"),
        arguments: DocSnippet.all().filter(\.needsVenv)
    )
    func python(_ snippet: DocSnippet) async throws {
        try await check(snippet)
    }

    private func check(_ snippet: DocSnippet) async throws {
        switch snippet.directive {
        case .skip(let reason):
            #expect(!reason.isEmpty, "\(snippet.testDescription): 'doc-test: skip' needs a reason in parentheses")
            return
        case .invalid(let line):
            Issue.record(
                "\(snippet.testDescription): unknown directive \(line); use skip (reason), setup or background")
            return
        case .none, .setup, .background:
            break
        }
        switch snippet.language {
        case "text":
            return
        case "sh", "bash":
            try await DocSnippetRunner.runScript(snippet, interpreter: .bash)
        case "python":
            try await DocSnippetRunner.runScript(snippet, interpreter: .python)
        case "yaml":
            try await DocSnippetRunner.checkScenario(snippet)
        case "json":
            let parsed = try? JSONSerialization.jsonObject(with: Data(snippet.text.utf8))
            #expect(parsed != nil, "\(snippet.testDescription) is not valid JSON; mark it 'doc-test: skip (abridged)'")
        default:
            Issue.record(
                """
                \(snippet.testDescription): a '\(snippet.language)' block cannot be run; give it a language that can \
                (sh, python, yaml, json, or text for output) or put <!-- doc-test: skip (reason) --> before it
                """
            )
        }
    }

    @Test("live-activities.md's once-only scenario load, pasted as is, prints why a scenario does not load")
    func scenarioLoadFailsLoudly() async throws {
        let block = try #require(
            DocSnippet.all().first { $0.file == "docs/live-activities.md" && $0.text.contains("/v1/scenario") })
        #expect(block.directive == .setup, "the documentation test must run it")
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).yaml")
        try "name: broken\ndevices:\n  - token: abc\n".write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        let server = try await MockServerProcess.start()
        // As a person pastes it: no `set -e`, no pipefail, curl as it is (not the runner's --fail-with-body).
        let script =
            "C=http://127.0.0.1:\(server.controlPort)\n"
            + block.text.replacingOccurrences(of: "@scenarios/taxi-ride.yaml", with: "@\(bad.path)")
        let result = try await DocSnippetRunner.run(script, interpreter: .bash, server: server, timeout: 30)
        await server.stop()
        #expect(result.output.contains("devices[0].token"), "\(result.output)")
        #expect(result.output.contains("The requested URL returned error: 422"), "\(result.output)")
    }

    @Test("the pages have blocks of each kind, and the parser reads fences and directives")
    func parser() {
        let all = DocSnippet.all()
        #expect(all.filter { $0.language == "sh" }.count >= 10)
        #expect(all.filter { $0.language == "python" }.count >= 10)
        let sample = """
            <!-- doc-test: setup -->
            ```sh
            C=x
            ```
            <!-- doc-test: skip (macOS only) -->

            ```sh
            brew install nghttp2
            ```
            ```sh
            echo $C
            ```
            <!-- doc-test: sometimes -->
            ```
            ```
            """
        let parsed = DocSnippet.parse(sample, file: "sample.md")
        #expect(parsed.map(\.line) == [2, 7, 10, 14])
        #expect(parsed[0].directive == .setup)
        #expect(parsed[1].directive == .skip(reason: "macOS only"))
        #expect(parsed[2].setup == "C=x\n" && parsed[2].text == "echo $C\n")
        #expect(parsed[3].directive == .invalid("<!-- doc-test: sometimes -->") && parsed[3].language.isEmpty)
    }
}
