import Foundation
import Testing

/// The default phone of a token the scenario does not declare (issue 23 item 2, "implicit phones"), as a real
/// provider meets it: `mock-apns run` against aioapns (`Tests/clients/aioapns_provider.py`) in lenient mode, and the
/// scenario's `notificationCenter:` expectation on that token's phone.
@Suite(
    "phone: an undeclared token's default phone, against a Python (aioapns) provider", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct PhoneImplicitProviderTests {
    static let token = "7a1c0de5" + String(repeating: "0f", count: 28)

    static let scenario = """
        name: implicit
        mode: lenient
        apps:
          - { bundleID: com.example.shop, teamID: TESTTEAM01 }
        expect:
          - name: the undeclared token's phone lists the order alert of each round
            notificationCenter: { token: \(token), app: com.example.shop, title: Order ready }
            count: 2
          - name: each was shown
            match: { token: \(token), device: { outcome: shown, rule: alert-shown } }
            count: 2
        """

    @Test("aioapns pushes to a token the scenario never names: its default phone shows both, and run passes")
    func defaultPhoneShows() async throws {
        let result = try await RunTestSupport.runAioapnsProvider(scenario: Self.scenario, [Self.token, "--rounds", "2"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("provider: 7a1c0d… 200"), "\(result.output)")
        #expect(result.output.contains("2 passed, 0 failed"), "\(result.output)")
    }
}
