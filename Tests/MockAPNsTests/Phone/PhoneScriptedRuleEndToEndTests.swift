import Foundation
import Testing

@testable import MockAPNs

/// A scripted 200 reaches the phone like any accepted push, unless its rule says `phone: false` (issue 23 item 6).
@Suite("phone: scripted answers end to end", .serialized)
struct PhoneScriptedRuleEndToEndTests {
    @Test("a scripted 200 reaches the phone; phone: false keeps it off; a scripted error reaches nothing")
    func scripted() async throws {
        let scenario = try PhonePush.scenario(
            """
            phones: { swiped: { apps: { com.example.app: { state: forceQuit } } } }
            devices:
              - { token: \(PhonePush.token(60)), phone: swiped }
            rules:
              - { name: quiet, match: { payload: { quiet: true } }, respond: { status: 200 }, phone: false }
              - { name: ok, match: { payload: { ok: true } }, respond: { status: 200 } }
              - { name: gone, match: { payload: { gone: true } }, respond: { reason: Unregistered } }
            """)
        try await withTestServer(scenario: scenario) { server in
            let body = #"{"aps":{"content-available":1},"ok":true}"#
            let reached = try await PhonePush.send(
                server, to: PhonePush.token(60), body, type: "background", priority: "5")
            #expect(reached.status == 200 && reached.kindAndRule == "notLaunched background-force-quit")
            #expect(server.journal.records().last?.rule == "scripted:ok")
            let quiet = try await PhonePush.send(
                server, to: PhonePush.token(60), #"{"aps":{"alert":"x"},"quiet":true}"#)
            #expect(quiet.status == 200 && quiet.device == nil)
            let gone = try await PhonePush.send(server, to: PhonePush.token(60), #"{"aps":{"alert":"x"},"gone":true}"#)
            #expect(gone.status == 410 && gone.device == nil)
        }
    }
}
