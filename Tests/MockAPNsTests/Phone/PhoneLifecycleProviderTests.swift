import Foundation
import Testing

/// An App Clip's 8 hours (phone.md §4, `ephemeral-expired`) as a real provider meets them: `mock-apns run` against
/// aioapns (`Tests/clients/aioapns_provider.py`), which sends the same alert to an App Clip the person opened long
/// ago and to one opened when the scenario loaded; APNs answers 200 to both, and the file's `expect:` checks what
/// each phone showed.
@Suite(
    "phone: an App Clip's 8 hours, against a Python (aioapns) provider", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct PhoneLifecycleProviderTests {
    static let stale = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251961"
    static let fresh = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251962"

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
    func appClipFromProvider() throws {
        let folder = try RunTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try RunTestSupport.write(Self.scenario, "app-clip.yaml", in: folder)
        let provider = [
            ThirdPartyClients.venvPython.path,
            AuthTestFiles.packageRoot.appendingPathComponent("Tests/clients/aioapns_provider.py").path,
        ]
        let result = try RunTestSupport.mockAPNs(["run", scenario, "--"] + provider + [Self.stale, Self.fresh])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("provider: 5984de… 200"), "\(result.output)")
        #expect(result.output.contains("2 passed, 0 failed"), "\(result.output)")
    }
}
