import Foundation
import Testing

@testable import MockAPNs

/// The walks of phone.md §4, "The others", from a Python provider: httpx over HTTP/2 with a PyJWT token
/// (`Tests/clients/push_types_httpx.py`) sends one push of each type with Apple's topic suffix, and the journal says
/// what the simulated phone did with each.
@Suite(
    "phone: the other push types from a Python (httpx) provider", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct PhoneOtherTypesPythonClientTests {
    static let token = PhonePush.token(90)

    static let world = """
        apps:
          - bundleID: com.example.app
            entitlements: [pushToTalk, locationPush]
            fileProviderDomains: [work]
        """

    @Test("each push type gets 200 and its phone outcome: launched, applied or delivered, with its rule")
    func everyType() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let result = try await ThirdPartyClients.run(
                script: "push_types_httpx.py", arguments: ["--port", String(server.port), "--token", Self.token])
            #expect(result.cases.count == 7, "\(result.transcript)")
            for clientCase in result.cases { #expect(clientCase.ok, "\(clientCase.line)") }
            #expect(result.status == 0, "\(result.transcript)")
            var outcomes: [String: String] = [:]
            for record in server.journal.records() where record.kind == .devicePush {
                outcomes[record.pushType ?? "?"] = record.device.map { "\($0.kind.rawValue) \($0.rule?.id ?? "-")" }
            }
            #expect(
                outcomes == [
                    "pushtotalk": "launched ptt-active-participant", "location": "launched location-extension-ran",
                    "complication": "launched complication-delivered", "widgets": "applied widget-reload",
                    "controls": "applied controls-reload", "fileprovider": "launched fileprovider-signalled",
                    "mdm": "delivered mdm-checkin",
                ])
            let warned = server.journal.records().compactMap(\.device).filter { !$0.warnings.isEmpty }
            #expect(warned.isEmpty, "a push as Apple documents it raises no warning")
        }
    }
}
