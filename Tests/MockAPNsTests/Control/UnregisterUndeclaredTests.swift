import Foundation
import MockAPNsTesting
import Testing

@testable import MockAPNs

/// `unregisterDevice(token:)` and `POST /v1/devices/{token}/unregister` on a token the world does not list: in the
/// default lenient world (which takes any token) it works, as its pushes show the token; in a strict world it is a
/// 404 that says why in the library's words.
@Suite("Unregistering a token the world does not list")
struct UnregisterUndeclaredTests {
    static let token = String(repeating: "0123456789abcdef", count: 4)

    @Test("in the default world, a VoIP token that got a 200 is unregistered over HTTP and its next VoIP push is a 410")
    func lenientOverHTTP() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server, to: Self.token, topic: "com.example.app.voip", pushType: "voip") == 200)
            let answer = try await ControlCurl.call("POST", control, "/v1/devices/\(Self.token)/unregister")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json?["kind"] == "voip", "\(answer.text)")
            #expect(try await sendPush(server, to: Self.token, topic: "com.example.app.voip", pushType: "voip") == 410)
            let newest = server.journal.records().last
            #expect(newest?.reason == "Unregistered")
        }
    }

    @Test("from Swift, withMockAPNs's default world unregisters a token it never saw: the next push is a 410")
    func lenientInProcess() async throws {
        try await withMockAPNs { server in
            let device = try await server.unregisterDevice(token: Self.token.uppercased())
            #expect(device.kind == .app && device.unregisteredAt != nil)
            #expect(try await sendPush(server.server, to: Self.token) == 410)
        }
    }

    @Test("in a strict world it is refused, in words that name the strict world and how to add the device from Swift")
    func strictRefuses() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.devicePolicy = .strict
        try await withMockAPNs(scenario: scenario) { server in
            do {
                _ = try await server.unregisterDevice(token: Self.token)
                Issue.record("a token a strict world does not list was unregistered")
            } catch let error as MockAPNsControlError {
                #expect(error.status == 404)
                #expect(error.message.contains("the world is strict"), "\(error)")
                #expect(error.message.contains("addDevices([Device(token:)])"), "\(error)")
                #expect(!"\(error)".contains("HTTP 404"), "an in-process refusal is not worded as HTTP: \(error)")
            }
        }
    }
}
