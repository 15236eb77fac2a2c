import Foundation
import Testing

/// `mock-apns run` with real `expect:` and `checks:` (issue 11): the verdicts a CI job acts on, end to end through
/// the command, with `mock-apns push` (AsyncHTTPClient) as the provider.
@Suite("mock-apns run verdicts", .serialized)
struct RunVerdictTests {
    typealias Support = RunTestSupport

    static let token = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979"

    @Test("a wrong title exits 1 naming the field and showing both values; the right one exits 0")
    func wrongTitle() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try Support.write(
            """
            name: checkout
            mode: lenient
            expect:
              - name: order alert reaches the phone
                match: { token: "\(Self.token)", pushType: alert, payload: { aps.alert.title: "Order ready" } }
                count: 1
            """, "checkout.yaml", in: folder)
        func push(title: String) async throws -> (status: Int32, output: String, errors: String) {
            let payload = try Support.write(
                #"{"aps":{"alert":{"title":"\#(title)"}}}"#, "payload.json", in: folder)
            return try await Support.mockAPNs(
                ["run", scenario, "--", "mock-apns", "push", Self.token, "--payload", payload])
        }
        let wrong = try await push(title: "Order Ready")
        #expect(wrong.status == 1, "\(wrong.output)\(wrong.errors)")
        #expect(wrong.output.contains("✗ order alert reaches the phone"), "\(wrong.output)")
        #expect(wrong.output.contains("aps.alert.title"), "\(wrong.output)")
        #expect(wrong.output.contains("Order Ready") && wrong.output.contains("Order ready"), "\(wrong.output)")
        let right = try await push(title: "Order ready")
        #expect(right.status == 0, "\(right.output)\(right.errors)")
        #expect(right.output.contains("✓ order alert reaches the phone"), "\(right.output)")
    }

    @Test("a provider that pushes after a 410 exits 1 naming stops-after-unregistered, in the JUnit file too")
    func pushAfterUnregistered() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = try String(
            contentsOf: AuthTestFiles.packageRoot.appendingPathComponent("scenarios/unregistered-after-first.yaml"),
            encoding: .utf8
        ).replacingOccurrences(of: "../certs/", with: AuthTestFiles.packageRoot.path + "/certs/")
        let scenario = try Support.write(rules + "\nchecks: [stops-after-unregistered]\n", "gone.yaml", in: folder)
        let junit = folder.appendingPathComponent("apns.xml").path
        let pushes = (0..<3).map { _ in "mock-apns push \(Self.token) --alert hi > /dev/null" }
        let result = try await Support.mockAPNs([
            "run", scenario, "--junit", junit, "--", "sh", "-c", pushes.joined(separator: "; ") + "; exit 0",
        ])
        #expect(result.status == 1, "\(result.output)\(result.errors)")
        #expect(result.output.contains("✗ check stops-after-unregistered"), "\(result.output)")
        let parsed = try await RunOutputTests.parseJUnit(junit)
        #expect(
            parsed.cases.contains { $0.0 == "mock-apns.check" && $0.1 == "stops-after-unregistered" && $0.2 != nil })
    }

    @Test("record mode writes an expect: block that a replay against the same provider passes")
    func recordThenReplay() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try Support.write("# the team's scenario\nname: shop\nmode: lenient\n", "shop.yaml", in: folder)
        let recorded = folder.appendingPathComponent("recorded.yaml").path
        let provider = [
            "sh", "-c",
            """
            mock-apns push \(Self.token) --alert 'Order "ready"' > /dev/null &&
            mock-apns push \(Self.token) --alert 'Order "ready"' > /dev/null &&
            mock-apns push \(Support.device) --live-activity update --content-state '{"eta":3}' > /dev/null
            """,
        ]
        let first = try await Support.mockAPNs(["run", scenario, "--record", recorded, "--"] + provider)
        #expect(first.status == 0, "\(first.output)\(first.errors)")
        let text = try String(contentsOfFile: recorded, encoding: .utf8)
        #expect(text.hasPrefix("# the team's scenario\nname: shop\n"), "\(text)")
        #expect(text.contains("count: 2"), "\(text)")
        #expect(!text.contains("aps.timestamp"), "\(text)")
        let replay = try await Support.mockAPNs(["run", recorded, "--"] + provider)
        #expect(replay.status == 0, "\(replay.output)\(replay.errors)")
        #expect(replay.output.contains("2 passed, 0 failed"), "\(replay.output)")
        let again = try await Support.mockAPNs(["run", recorded, "--record", recorded + ".2", "--", "true"])
        #expect(again.status == 2)
        #expect(again.errors.contains("already has one"), "\(again.errors)")
    }

    @Test("examples/ci: the scenario loads, every shell block of its README runs, and the README names each action")
    func examplesCI() async throws {
        let check = try await Support.mockAPNs(["check", "examples/ci/scenario.yaml"])
        #expect(check.status == 0, "\(check.output)\(check.errors)")
        let folder = AuthTestFiles.packageRoot.appendingPathComponent("examples/ci")
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = DocSnippet.parse(readme, file: "examples/ci/README.md").filter { $0.language == "sh" }
        #expect(blocks.count == 2)
        for block in blocks { try await DocSnippetRunner.runScript(block, interpreter: .bash) }
        let workflow = try String(
            contentsOf: folder.appendingPathComponent(".github/workflows/push-tests.yml"), encoding: .utf8)
        #expect(workflow.contains("mock-apns run mock-apns/examples/ci/scenario.yaml --junit build/apns.xml"))
        for line in workflow.split(separator: "\n") where line.contains("uses: ") {
            let action = line.components(separatedBy: "uses: ").last ?? ""
            #expect(readme.contains(action), "examples/ci/README.md does not explain \(action)")
        }
    }
}
