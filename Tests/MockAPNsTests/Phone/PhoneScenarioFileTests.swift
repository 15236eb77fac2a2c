import Foundation
import Testing

@testable import MockAPNs

/// `scenarios/phone.yaml`, the shipped example: the push in each comment, sent with curl, gives the outcome the
/// comment names, and the file's `expect:` then passes.
@Suite("phone: scenarios/phone.yaml", .serialized)
struct PhoneScenarioFileTests {
    /// The token of the file's device `n`.
    static func token(_ n: Int) -> String {
        "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec2519" + String(format: "%02d", n)
    }

    @Test("each phone gives the outcome its comment names, and every expectation passes")
    func everyOutcome() async throws {
        let scenario = try ScenarioLoader.load(
            file: ScenarioLoaderTests.scenariosFolder.appendingPathComponent("phone.yaml").path)
        try await withTestServer(scenario: scenario) { server in
            func alert(_ n: Int, _ body: String = PhonePush.alert()) async throws -> String {
                try await PhonePush.send(server, to: Self.token(n), body).kindAndRule
            }
            func silent(_ n: Int) async throws -> String {
                try await PhonePush.send(
                    server, to: Self.token(n), PhonePush.background, type: "background", priority: "5"
                ).kindAndRule
            }
            func call(_ body: String) async throws -> String {
                try await PhonePush.send(
                    server, to: Self.token(8), body, type: "voip", topic: "com.example.app.voip", priority: "10"
                ).kindAndRule
            }
            #expect(
                try await alert(1, PhonePush.alert(#""sound":"chime.caf","mutable-content":1"#)) == "shown alert-shown")
            #expect(try await alert(1, #"{"aps":{"badge":1}}"#) == "applied badge-only")
            #expect(try await alert(1, #"{"aps":{"mutable-content":1}}"#) == "notShown nse-no-alert")
            #expect(try await silent(1) == "launched background-launched")
            #expect(try await alert(2) == "shownQuietly provisional")
            #expect(try await alert(3) == "withheld focus-not-allowed")
            #expect(try await alert(4) == "discarded notifications-disabled")
            #expect(try await alert(5) == "stored stored-offline")
            #expect(try await silent(6) == "notLaunched background-force-quit")
            #expect(try await silent(7) == "held background-low-power")
            #expect(try await call(#"{"callID":"c-1"}"#) == "reported voip-reported")
            #expect(try await call("{}") == "terminated voip-not-reported")
            let modified = try #require(try await server.phone(id: "ordinary")?.apps.first?.notifications.first)
            #expect(modified.title == "New message", "the service extension's set, as the person reads it")
            func other(_ n: Int, _ type: APNsPushType, _ body: String = #"{"aps":{}}"#) async throws -> String {
                try await PhonePush.send(
                    server, to: Self.token(n), body, type: type.name, topic: "com.example.app" + type.topicSuffix,
                    priority: "10"
                ).kindAndRule
            }
            let reload = #"{"aps":{"content-changed":true}}"#
            #expect(try await other(1, .pushtotalk) == "launched ptt-active-participant")
            #expect(try await other(9, .pushtotalk) == "dropped ptt-no-channel")
            #expect(try await other(1, .location) == "launched location-extension-ran")
            #expect(try await other(10, .location) == "dropped location-not-authorized")
            #expect(try await other(1, .complication) == "launched complication-delivered")
            #expect(try await other(11, .complication) == "dropped complication-not-on-face")
            #expect(try await other(1, .widgets, reload) == "applied widget-reload")
            #expect(try await other(1, .controls, reload) == "applied controls-reload")
            #expect(try await other(1, .fileprovider, #"{"domain":"work"}"#) == "launched fileprovider-signalled")
            #expect(try await other(1, .fileprovider, "{}") == "dropped fileprovider-no-domain")
            let mdm = try await PhonePush.send(
                server, to: Self.token(12), #"{"mdm":"8F1D2A5B"}"#, type: "mdm",
                topic: "com.apple.mgmt.External.5f3a4a0e-1c1f-4a8e-9b6e-0f2c3d4e5f60")
            #expect(mdm.kindAndRule == "delivered mdm-checkin", "\(mdm.body)")
            let clip = try await PhonePush.send(
                server, to: Self.token(13), PhonePush.alert(), topic: "com.example.clip")
            #expect(clip.kindAndRule == "notShown ephemeral-expired", "\(clip.device?.reason ?? "")")
            #expect(try await silent(14) == "notLaunched background-app-inactive")
            let nested = try await PhonePush.send(
                server, to: Self.token(15), #"{"aps":{"alert":"Ready"},"data":{"orderID":"42"}}"#,
                topic: "com.example.shop")
            #expect(nested.kindAndRule == "shown payload-type")
            #expect(nested.device?.warnings.first?.contains("found at data.orderID") == true)
            let message = try await PhonePush.send(
                server, to: Self.token(16),
                #"{"aps":{"mutable-content":1,"alert":{"title":"Mum","body":"Dinner at 8?"}}}"#,
                topic: "com.example.chat")
            #expect(message.kindAndRule == "shown focus-communication" && message.device?.communicationSender == "Mum")
            let report = server.verify(startedAt: nil)
            #expect(report.passed, "\(report)")
            #expect(report.items.count == 29)
            let listed = report.items.first { $0.name == "Mum's message is on the bedtime phone's list" }
            #expect(listed?.records == [message.sequence], "the sender's expectation counts the message itself")
        }
    }
}
