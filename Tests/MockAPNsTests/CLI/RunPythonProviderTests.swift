import Foundation
import Testing

/// `mock-apns run` playing a scenario against a Python provider built on a real APNs client library (aioapns, from
/// `.venv-clients/`), configured only from the variables `run` hands it: `Tests/clients/aioapns_provider.py`.
@Suite(
    "mock-apns run against a Python (aioapns) provider", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct RunPythonProviderTests {
    typealias Support = RunTestSupport

    static let phone = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979"
    static let oldPhone = String(repeating: "a", count: 64)

    /// One app, the old phone answered 410, an expected alert and two checks.
    static let scenario = """
        name: checkout
        mode: lenient
        apps:
          - { bundleID: com.example.shop, teamID: TESTTEAM01 }
        rules:
          - name: the old phone uninstalled the app
            match: { token: \(oldPhone) }
            respond: { reason: Unregistered }
        expect:
          - name: order alert reaches the phone
            match: { token: \(phone), pushType: alert, topic: com.example.shop, payload: { aps.alert.title: "Order ready" } }
            count: { min: 1 }
            answered: 200
        checks: [stops-after-unregistered, reuses-connections]
        """

    func run(_ providerArguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        try await Support.runAioapnsProvider(scenario: Self.scenario, providerArguments)
    }

    @Test("a provider that drops a token after its 410 passes: exit 0, every item passed")
    func wellBehaved() async throws {
        let result = try await run([Self.phone, Self.oldPhone, "--rounds", "3"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("✓ order alert reaches the phone: 3 pushes"), "\(result.output)")
        #expect(result.output.contains("✓ check stops-after-unregistered"), "\(result.output)")
        #expect(result.output.contains("✓ check reuses-connections"), "\(result.output)")
        #expect(result.output.contains("3 passed, 0 failed, 4 records checked"), "\(result.output)")
    }

    @Test("a provider that pushes on after a 410 exits 1 naming stops-after-unregistered and the records")
    func pushesAfterUnregistered() async throws {
        let result = try await run([Self.phone, Self.oldPhone, "--rounds", "3", "--keep-pushing"])
        #expect(result.status == 1, "\(result.output)\(result.errors)")
        #expect(result.output.contains("✗ check stops-after-unregistered: 2 records broke it"), "\(result.output)")
        #expect(result.output.contains("sent to a token answered 410 Unregistered in #2"), "\(result.output)")
        #expect(result.output.contains("✓ order alert reaches the phone"), "\(result.output)")
    }
}
