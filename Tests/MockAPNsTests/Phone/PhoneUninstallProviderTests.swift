import Foundation
import Testing

/// The 410 that follows an uninstall (issue 23, phone.md §1 step 1) as a real provider meets it: `mock-apns run`
/// against aioapns (`Tests/clients/aioapns_provider.py`), which drops a token once APNs answers it 410.
@Suite(
    "phone: the 410 after an uninstall, against a Python (aioapns) provider", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct PhoneUninstallProviderTests {
    static let phone = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979"

    static let scenario = """
        name: uninstalled
        mode: lenient
        apps:
          - { bundleID: com.example.shop, teamID: TESTTEAM01 }
        phones:
          alice: { apps: { com.example.shop: { installed: false } } }
        devices:
          - { token: \(phone), app: com.example.shop, phone: alice }
        simulation: { unregisteredAfter: 0s }
        expect:
          - name: the first push after the deletion gets a 200 and is discarded
            match: { token: \(phone), device: { outcome: discarded, rule: app-uninstalled } }
            answered: 200
          - name: the provider stops after the 410
            match: { token: \(phone) }
            count: 2
        checks: [stops-after-unregistered]
        """

    @Test("200 discarded, then 410 Unregistered: aioapns stops pushing to the token, and run passes")
    func providerStops() async throws {
        let result = try await RunTestSupport.runAioapnsProvider(scenario: Self.scenario, [Self.phone, "--rounds", "3"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("provider: 5984de… 200"), "\(result.output)")
        #expect(result.output.contains("provider: 5984de… 410 Unregistered"), "\(result.output)")
        #expect(result.output.contains("3 passed, 0 failed, 2 records checked"), "\(result.output)")
    }
}
