import Foundation
import Testing

@testable import MockAPNs

/// An App Clip's 8 hours (phone.md §4, `ephemeral-expired`) as real providers meet them: `mock-apns run` against
/// aioapns (`Tests/clients/aioapns_provider.py`), which sends the same alert to an App Clip the person opened long
/// ago and to one opened when the scenario loaded (APNs answers 200 to both, and the file's `expect:` checks what
/// each phone showed); and httpx sending the same alert twice on one connection with the clock moved between them
/// (`Tests/clients/clock_between_pushes_httpx.py`), which the connection's memory of a payload must not answer.
@Suite(
    "phone: an App Clip's 8 hours, against Python providers (aioapns, httpx)", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct PhoneLifecycleProviderTests {
    /// The App Clip's token on the phone opened in 2020, and on the phone opened at the load.
    static let stale = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251961"
    static let fresh = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251962"

    /// Two App Clip phones and the expectations `run` checks.
    static let scenario = """
        name: app-clip
        apps:
          - { bundleID: com.example.app, teamID: TESTTEAM01, appClip: true }
        phones:
          visited-last-year:
            apps: { com.example.app: { lastOpened: 2020-01-01T00:00:00Z } }
          visited-now: {}
        devices:
          - { token: \(stale), app: com.example.app, phone: visited-last-year }
          - { token: \(fresh), app: com.example.app, phone: visited-now }
        expect:
          - name: the App Clip opened long ago shows nothing
            match: { token: \(stale), device: { outcome: notShown, rule: ephemeral-expired } }
            answered: 200
          - name: the App Clip opened within 8 hours shows the alert
            match: { token: \(fresh), device: { outcome: shown, rule: alert-shown } }
            answered: 200
        """

    @Test("aioapns gets 200 for both; one is ephemeral-expired, the other shown, and run passes")
    func appClipFromProvider() async throws {
        let folder = try RunTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try RunTestSupport.write(Self.scenario, "app-clip.yaml", in: folder)
        let provider = [
            ThirdPartyClients.venvPython.path,
            AuthTestFiles.packageRoot.appendingPathComponent("Tests/clients/aioapns_provider.py").path,
        ]
        let result = try await RunTestSupport.mockAPNs(["run", scenario, "--"] + provider + [Self.stale, Self.fresh])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("provider: 5984de… 200"), "\(result.output)")
        #expect(result.output.contains("2 passed, 0 failed"), "\(result.output)")
    }

    @Test("the same alert on one connection before and after the clock passes 8 hours: shown, then ephemeral-expired")
    func sameConnectionAcrossTheClock() async throws {
        let world = """
            mode: lenient
            apps:
              - { bundleID: com.example.app, appClip: true }
            """
        let token = PhonePush.token(63)
        try await withControlServer(scenario: try PhonePush.scenario(world)) { server, control in
            let result = try await ThirdPartyClients.run(
                script: "clock_between_pushes_httpx.py",
                arguments: ["--port", String(server.port), "--control-url", control.url, "--token", token])
            #expect(result.cases.count == 3 && result.status == 0, "\(result.transcript)")
            for clientCase in result.cases { #expect(clientCase.ok, "\(clientCase.line)") }
            let pushes = server.journal.records().filter { $0.kind == .devicePush }
            #expect(pushes.count == 2 && Set(pushes.map(\.connectionID)).count == 1, "both on one connection")
            let outcomes = pushes.map { $0.device.map { "\($0.kind.rawValue) \($0.rule?.id ?? "-")" } ?? "none" }
            #expect(outcomes == ["shown alert-shown", "notShown ephemeral-expired"], "\(outcomes)")
        }
    }
}
