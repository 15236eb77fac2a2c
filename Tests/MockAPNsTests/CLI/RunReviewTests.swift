import Foundation
import Testing

@testable import MockAPNs

/// `mock-apns run`, `verify` and `--record` at the edges found in review: what COMMAND inherits, files that
/// cannot be written, recording into another folder, tokens in two cases, and `within:` offline.
@Suite("mock-apns run: review edges", .serialized)
struct RunReviewTests {
    typealias Support = RunTestSupport

    static let token = RunVerdictTests.token

    @Test("COMMAND inherits only stdin, stdout and stderr, not the mock's sockets")
    func onlyStandardDescriptors() async throws {
        let result = try await Support.mockAPNs(["run", "--", "sh", "-c", "ls /proc/$$/fd"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let descriptors = result.output.split(separator: "\n").filter { $0.allSatisfy(\.isNumber) }
        #expect(descriptors == ["0", "1", "2"], "\(result.output)")
    }

    // Issue 20 changed this test: a missing folder is now made before COMMAND runs, and a path that cannot be
    // written is refused there (exit 2, COMMAND not run) instead of after a whole run.
    @Test("--junit or --report that cannot be written stops run with 2 up front; a late failure keeps a failure's code")
    func unwritableOutputs() async throws {
        let passing = try await Support.mockAPNs(["run", "--junit", "/dev/null/apns.xml", "--", "true"])
        #expect(passing.status == 2, "\(passing.output)\(passing.errors)")
        #expect(
            passing.errors.contains("--junit /dev/null/apns.xml: /dev/null is a file, not a folder"),
            "\(passing.errors)")
        #expect(passing.output.isEmpty, "no verdict: nothing ran")
        let report = try await Support.mockAPNs(["run", "--report", "/dev/null/apns.md", "--", "true"])
        #expect(report.status == 2, "\(report.output)\(report.errors)")
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let build = folder.appendingPathComponent("build").path
        let failing = try await Support.mockAPNs([
            "run", "--junit", "\(build)/apns.xml", "--", "sh", "-c", "rm -r '\(build)' && touch '\(build)' && false",
        ])
        #expect(failing.status == 3, "\(failing.output)\(failing.errors)")
        #expect(failing.errors.contains("cannot write") || failing.errors.contains("not a folder"), "\(failing.errors)")
    }

    @Test("--record into another folder rewrites the scenario's relative key path; the replay passes")
    func recordElsewhere() async throws {
        let scenarioFolder = try Support.folder()
        let recordFolder = try Support.folder()
        defer {
            try? FileManager.default.removeItem(at: scenarioFolder)
            try? FileManager.default.removeItem(at: recordFolder)
        }
        let key = AuthTestFiles.packageRoot.appendingPathComponent("certs/AuthKey_TESTKEY001.p8")
        try FileManager.default.copyItem(at: key, to: scenarioFolder.appendingPathComponent("the key.p8"))
        let scenario = try Support.write(
            """
            name: shop   # the team's scenario
            mode: strict
            apps: [{ bundleID: com.example.shop, teamID: TESTTEAM01 }]
            keys:
              - { teamID: TESTTEAM01, keyID: TESTKEY001, p8: "the key.p8" }
            devices:
              - { token: \(Self.token), app: com.example.shop }
            """, "shop.yaml", in: scenarioFolder)
        let recorded = recordFolder.appendingPathComponent("recorded.yaml").path
        // The token once in upper case: one device, so one expectation with count 2.
        let provider = [
            "sh", "-c",
            "mock-apns push \(Self.token) --alert hi > /dev/null && "
                + "mock-apns push \(Self.token.uppercased()) --alert hi > /dev/null",
        ]
        let first = try await Support.mockAPNs(["run", scenario, "--record", recorded, "--"] + provider)
        #expect(first.status == 0, "\(first.output)\(first.errors)")
        let text = try String(contentsOfFile: recorded, encoding: .utf8)
        #expect(text.contains(#"p8: "../\#(scenarioFolder.lastPathComponent)/the key.p8" }"#), "\(text)")
        #expect(text.contains("name: shop   # the team's scenario"), "\(text)")
        #expect(text.contains("count: 2"), "\(text)")
        let replay = try await Support.mockAPNs(["run", recorded, "--"] + provider)
        #expect(replay.status == 0, "\(replay.output)\(replay.errors)")
        #expect(replay.output.contains("1 passed, 0 failed"), "\(replay.output)")
    }

    @Test("verify --started-at with run's JUnit startedAt gives run's within: verdict; a bad time exits 2")
    func withinOffline() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try Support.write(
            """
            name: late
            expect:
              - name: the alert comes at once
                match: { token: \(Self.token) }
                within: 1s
            """, "late.yaml", in: folder)
        let journal = folder.appendingPathComponent("apns.jsonl").path
        let junit = folder.appendingPathComponent("apns.xml").path
        let run = try await Support.mockAPNs([
            "run", scenario, "--journal", journal, "--junit", junit, "--",
            "sh", "-c", "sleep 1.5; mock-apns push \(Self.token) --alert late > /dev/null",
        ])
        #expect(run.status == 1, "\(run.output)\(run.errors)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        let startedAt = try #require(
            xml.components(separatedBy: #"name="startedAt" value=""#).dropFirst().first?.components(
                separatedBy: "\"").first)
        let offline = try await Support.mockAPNs(["verify", scenario, "--journal", journal, "--started-at", startedAt])
        #expect(offline.status == 1, "\(offline.output)\(offline.errors)")
        let fromFirstRecord = try await Support.mockAPNs(["verify", scenario, "--journal", journal])
        #expect(fromFirstRecord.status == 0, "\(fromFirstRecord.output)\(fromFirstRecord.errors)")
        let bad = try await Support.mockAPNs(["verify", scenario, "--journal", journal, "--started-at", "yesterday"])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("--started-at: expected an ISO 8601 time"), "\(bad.errors)")
    }

    @Test("an expectation or rule name with a line break is refused at its line")
    func nameWithLineBreak() throws {
        let yaml = """
            expect:
              - name: "two\\nlines"
                match: { token: \(Self.token) }
            """
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/") }
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, sourcePath: "s.yaml", baseDirectory: "/")
        } catch {
            #expect("\(error)".contains("s.yaml:2:"), "\(error)")
            #expect("\(error)".contains("must be one line"), "\(error)")
        }
    }
}
