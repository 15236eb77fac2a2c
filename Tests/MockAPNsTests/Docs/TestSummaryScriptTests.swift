import Foundation
import Testing

/// `scripts/test-summary`, the last paragraph of `scripts/test`: what a CI page that keeps only a log's last lines
/// still shows.
@Suite("scripts/test's summary")
struct TestSummaryScriptTests {
    static func summarize(_ log: String) async throws -> (status: Int32, output: String, errors: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("test-log-\(UUID().uuidString)")
        try log.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await Subprocess.run(ScriptErrorTests.script("test-summary"), [file.path])
    }

    @Test("after a failing run, lists each failed expectation again, after the skipped tests")
    func failures() async throws {
        let log = """
            ◇ Test "answers 200" started.
            ◇ Test "lists the skipped tests" started.
            ✔ Test "lists the skipped tests" passed after 0.1 seconds.
            ◇ Test "what recorded an issue: says so" started.
            ✘ Test "answers 200" recorded an issue at A.swift:3:9: Expectation failed: (status → 400) == 200
            ↳ the body
            ✘ Test "answers 200" failed after 0.1 seconds with 1 issue.
            ➜ Test "needs the venv" skipped: "needs .venv-clients/"
            ✘ Test "waits" recorded an issue at B.swift:7:5: Time limit was exceeded: 60.000 seconds
            ✘ Test floods(kind:) recorded an issue with 1 argument kind → "ping" at C.swift:9:9: Expectation failed
            ✘ Test run with 3 tests in 1 suite failed after 1.0 seconds with 2 issues.
            """
        let result = try await Self.summarize(log)
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            result.output == """

                scripts/test: 1 test(s) skipped:
                  "needs the venv" skipped: "needs .venv-clients/"
                scripts/test: enable them with Tests/clients/setup.sh (third-party clients, Python snippets) and \
                MOCK_APNS_PACKAGE_TEST=1 (the packaged binary); .ci/run does both.
                scripts/test: 3 failed expectation(s), as reported above:
                  "answers 200" recorded an issue at A.swift:3:9: Expectation failed: (status → 400) == 200
                  "waits" recorded an issue at B.swift:7:5: Time limit was exceeded: 60.000 seconds
                  floods(kind:) recorded an issue with 1 argument kind → "ping" at C.swift:9:9: Expectation failed

                """)
    }

    @Test("a clean run says only that nothing was skipped; an XCTest skip counts; a long list of failures stops at 50")
    func cleanAndLong() async throws {
        let clean = try await Self.summarize(
            "Test Case '-[A b]' passed (0.1 seconds).\n✔ Test run with 3 tests in 1 suite passed after 1.0 seconds.\n")
        #expect(clean.output == "\nscripts/test: no test skipped.\n")
        let xcTest = try await Self.summarize("Test Case '-[A b]' skipped (0.001 seconds).\n")
        #expect(xcTest.output.contains("scripts/test: 1 test(s) skipped:\n  Case '-[A b]' skipped (0.001 seconds).\n"))

        let many = (1...55).map { "✘ Test \"t\($0)\" recorded an issue at A.swift:\($0):1: Expectation failed" }
        let long = try await Self.summarize(many.joined(separator: "\n"))
        let lines = long.output.split(separator: "\n")
        #expect(lines.contains("scripts/test: 55 failed expectation(s), as reported above:"))
        #expect(lines.filter { $0.hasPrefix("  \"t") }.count == 50)
        #expect(lines.last == "  … and 5 more above")
    }

    @Test("a log it cannot read is an error")
    func unreadable() async throws {
        let result = try await Subprocess.run(ScriptErrorTests.script("test-summary"), ["/nonexistent/log"])
        #expect(result.status == 2)
        #expect(result.errors.contains("/nonexistent/log"))
    }
}
