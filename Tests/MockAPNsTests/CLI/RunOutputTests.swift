import Foundation
import Testing

/// The outputs of `mock-apns run` and `verify`: terminal text, JUnit XML, Markdown, the journal file, and the same
/// verdict offline.
@Suite("mock-apns run outputs", .serialized)
struct RunOutputTests {
    typealias Support = RunTestSupport

    /// A scenario whose journal keeps one record: a second push is dropped and fails the verdict (exit 1) on every
    /// branch, whatever `expect:` and `checks:` can do.
    static let tinyJournal = "name: tiny <&> \"journal\"\nmode: lenient\njournal:\n  capacity: 1\n"

    /// `sh -c` pushing `count` alerts with `mock-apns push`.
    static func pushes(_ count: Int) -> [String] {
        [
            "sh", "-c",
            (0..<count).map { "mock-apns push \(Support.device) --alert 'n\($0)' > /dev/null" }.joined(
                separator: " && "),
        ]
    }

    /// `(tests, failures, [(classname, name, failure message or nil)])` of a JUnit file, read by Python's
    /// xml.etree, as CI readers parse it.
    static func parseJUnit(
        _ path: String
    ) async throws -> (tests: Int, failures: Int, cases: [(String, String, String?)]) {
        let script = """
            import json, sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            suite = root.find('testsuite')
            cases = [[c.get('classname'), c.get('name'),
                      c.find('failure').get('message') if c.find('failure') is not None else None]
                     for c in suite.findall('testcase')]
            print(json.dumps({'tests': int(suite.get('tests')), 'failures': int(suite.get('failures')),
                              'cases': cases, 'rootTests': int(root.get('tests'))}))
            """
        let result = try await Subprocess.run("/usr/bin/env", ["python3", "-c", script, path], timeout: 30)
        #expect(result.status == 0, "the JUnit file does not parse: \(result.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let cases = (json["cases"] as? [[Any]] ?? []).map {
            ($0[0] as? String ?? "", $0[1] as? String ?? "", $0[2] as? String)
        }
        #expect(json["rootTests"] as? Int == json["tests"] as? Int)
        return (json["tests"] as? Int ?? -1, json["failures"] as? Int ?? -1, cases)
    }

    @Test("--junit parses: one case for COMMAND's exit, a failure for a failed COMMAND, names XML-escaped")
    func junitCommand() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("apns.xml").path
        let passed = try await Support.mockAPNs(["run", "--junit", junit, "--", "sh", "-c", "echo '<&\"'"])
        #expect(passed.status == 0)
        var parsed = try await Self.parseJUnit(junit)
        #expect(parsed.tests == 1 && parsed.failures == 0)
        #expect(parsed.cases.first?.0 == "mock-apns.command")
        #expect(parsed.cases.first?.1.contains("echo") == true && parsed.cases.first?.1.contains("<&\"") == true)
        let failed = try await Support.mockAPNs(["run", "--junit", junit, "--", "sh", "-c", "exit 4"])
        #expect(failed.status == 3)
        parsed = try await Self.parseJUnit(junit)
        #expect(parsed.tests == 1 && parsed.failures == 1)
        #expect(parsed.cases.first?.2 == "COMMAND exited 4")
    }

    @Test("with nobody reading its output (| head -0) run still writes --junit and exits with the verdict")
    func closedOutput() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("apns.xml").path
        let script = #""$0" run --junit "$1" -- true | head -0; echo "run exited ${PIPESTATUS[0]}""#
        let result = try await Subprocess.run(
            "/bin/bash", ["-c", script, CLITests.executable, junit], in: AuthTestFiles.packageRoot,
            environment: Support.environment(), timeout: 60)
        #expect(result.output == "run exited 0\n", "\(result.output)\(result.errors)")
        #expect(!result.errors.contains("Fatal error"), "\(result.errors)")
        await #expect(try Self.parseJUnit(junit).tests == 1)
    }

    @Test("a verdict that fails exits 1 whatever COMMAND did; JUnit, Markdown and the step summary say why")
    func failedVerdict() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try Support.write(Self.tinyJournal, "tiny.yaml", in: folder)
        let junit = folder.appendingPathComponent("apns.xml").path
        let report = folder.appendingPathComponent("apns.md").path
        let summary = try Support.write("earlier step\n", "summary.md", in: folder)
        let result = try await Support.mockAPNs(
            ["run", scenario, "--junit", junit, "--report", report, "--", "sh", "-c", Self.pushes(2)[2] + "; exit 5"],
            environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == 1, "\(result.output)\(result.errors)")
        #expect(result.output.contains("the journal dropped 1 record"), "\(result.output)")
        #expect(!result.output.contains("\u{1B}["), "no colour when standard output is not a terminal")
        let parsed = try await Self.parseJUnit(junit)
        #expect(parsed.tests == 2 && parsed.failures == 2)
        #expect(parsed.cases.map(\.0) == ["mock-apns.journal", "mock-apns.command"])
        let markdown = try String(contentsOfFile: report, encoding: .utf8)
        #expect(markdown.hasPrefix("### mock-apns: scenario `tiny <&> \"journal\"` failed"), "\(markdown)")
        #expect(markdown.contains("❌ COMMAND"), "\(markdown)")
        let appended = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(appended == "earlier step\n" + markdown)
    }

    @Test("--quiet leaves out what passed but keeps the summary line")
    func quiet() async throws {
        let result = try await Support.mockAPNs(["run", "--quiet", "--", "true"])
        #expect(result.status == 0)
        #expect(!result.output.contains("✓"), "\(result.output)")
        #expect(result.output.contains("0 passed, 0 failed"), "\(result.output)")
    }

    @Test("--journal writes the run's records, and verify of that file gives the same verdict and exit code")
    func journalThenVerify() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("run.jsonl").path
        try "a record from an earlier run\n".write(toFile: journal, atomically: true, encoding: .utf8)
        let scenario = "scenarios/unregistered-after-first.yaml"
        let run = try await Support.mockAPNs(["run", scenario, "--journal", journal, "--"] + Self.pushes(3))
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        let records = try Support.journal(journal)
        #expect(records.count == 3, "the file is replaced, not appended to")
        let verify = try await Support.mockAPNs(["verify", scenario, "--journal", journal])
        #expect(verify.status == 0, "\(verify.output)\(verify.errors)")
        #expect(verify.output.contains("3 records checked"))
        let runSummary = run.output.split(separator: "\n").last
        #expect(verify.output.split(separator: "\n").last == runSummary)
    }

    @Test("verify exits 1 when the verdict fails, and 2 naming file:line for a journal line that is not a record")
    func verifyFailures() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("run.jsonl").path
        let run = try await Support.mockAPNs(["run", "--journal", journal, "--"] + Self.pushes(1))
        #expect(run.status == 0)
        let line = try String(contentsOfFile: journal, encoding: .utf8)
        let junit = folder.appendingPathComponent("verify.xml").path
        let scenario = try Support.write(Self.tinyJournal, "tiny.yaml", in: folder)
        let passing = try await Support.mockAPNs(["verify", scenario, "--journal", journal, "--junit", junit])
        #expect(passing.status == 0, "\(passing.output)\(passing.errors)")
        await #expect(try Self.parseJUnit(junit).tests == 0)
        try (line + "\n" + "{\"sequence\": 1}\n").write(toFile: journal, atomically: true, encoding: .utf8)
        let bad = try await Support.mockAPNs(["verify", "scenarios/default.yaml", "--journal", journal])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("run.jsonl:3: not a journal record"), "\(bad.errors)")
        try (line + "{oops\n").write(toFile: journal, atomically: true, encoding: .utf8)
        let notJSON = try await Support.mockAPNs(["verify", "scenarios/default.yaml", "--journal", journal])
        #expect(notJSON.status == 2)
        #expect(notJSON.errors.contains("run.jsonl:2: not JSON"), "\(notJSON.errors)")
        let missing = try await Support.mockAPNs(
            ["verify", "scenarios/default.yaml", "--journal", "/nonexistent.jsonl"])
        #expect(missing.status == 2)
    }
}
