import Foundation
import Testing

@testable import MockAPNs

/// `apps[].payload` and communication notifications from a Python provider: httpx over HTTP/2 with a PyJWT token
/// (`Tests/clients/payload_types_httpx.py`) sends an alert with its custom key nested where the app does not read it,
/// the same alert typed right, a VoIP push with a number for a String, and a chat message from Mum to a phone in a
/// Focus that allows Mum; the journal says what the simulated phone did with each.
@Suite(
    "phone: payload types and communication from a Python (httpx) provider", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct PhonePayloadPythonClientTests {
    static let token = PhonePush.token(91)
    static let voipToken = PhonePush.token(92)

    static let world = """
        apps:
          - bundleID: com.example.app
            entitlements: [communication]
            serviceExtension: { does: modify, communication: { sender: Mum } }
            payload:
              alert: { orderID: String }
              voip: { callID: String, callerName: String }
        phones:
          evening: { focus: { name: Personal, allowedPeople: [Mum] } }
        devices:
          - { token: \(token), phone: evening }
          - { token: \(voipToken), kind: voip, phone: evening }
        """

    @Test("each push gets 200; the phone warns payload-type where the keys do not decode and lets Mum through")
    func pushes() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let result = try await ThirdPartyClients.run(
                script: "payload_types_httpx.py", arguments: [
                    "--port", String(server.port), "--token", Self.token, "--voip-token", Self.voipToken,
                ])
            #expect(result.cases.count == 4, "\(result.transcript)")
            for clientCase in result.cases { #expect(clientCase.ok, "\(clientCase.line)") }
            #expect(result.status == 0, "\(result.transcript)")
            let devices = server.journal.records().filter { $0.kind == .devicePush }.compactMap(\.device)
            #expect(devices.count == 4)
            guard devices.count == 4 else { return }
            let (nested, typed, voip, message) = (devices[0], devices[1], devices[2], devices[3])
            #expect(nested.kind == .withheld && nested.rule == .focusNotAllowed && nested.fired(.payloadType))
            #expect(
                nested.warnings.first?.hasPrefix("payload-type: orderID: missing required key; found at data.orderID")
                    == true, "\(nested.warnings)")
            #expect(typed.kind == .withheld && typed.warnings == [])
            #expect(voip.kind == .reported && voip.fired(.payloadType))
            #expect(voip.warnings.first?.hasPrefix("payload-type: callID: expected String, found number") == true)
            #expect(message.kind == .shown && message.rule == .focusCommunication)
            #expect(
                message.communicationSender == "Mum" && message.fired(.payloadType), "a chat message has no orderID")
        }
    }
}
