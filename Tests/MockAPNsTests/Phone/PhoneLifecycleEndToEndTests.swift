import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// The app's life on the phone (issue 23, phone.md §2-§4) over HTTP/2 with curl, under the movable clock: an App
/// Clip's 8 hours after each launch (`ephemeral-expired`) and its missing service extension (`nse-app-clip`),
/// `lastOpened` set by opening the app, `simulation.inactiveAppAfter` (`background-app-inactive`), and
/// `POST /v1/phones/{id}/restart` from curl, the Swift client and the CLI.
@Suite("phone: App Clips, lastOpened, inactiveAppAfter and restart, end to end", .serialized)
struct PhoneLifecycleEndToEndTests {
    static let t = PhonePush.token

    /// An App Clip on `visitor`, an app with the ephemeral authorization opened in 2020 on `ephemeral`, and a
    /// force-quit, a foreground and a background app on `swiped`.
    static let world = """
        apps:
          - bundleID: com.example.clip
            appClip: true
            serviceExtension: { does: modify, set: { title: Changed } }
        phones:
          visitor: {}
          ephemeral:
            apps: { com.example.app: { authorization: ephemeral, lastOpened: 2020-01-01T00:00:00Z } }
          swiped:
            apps:
              com.example.app: { state: forceQuit }
              com.example.other: { state: foreground }
              com.example.third: { state: background }
        devices:
          - { token: \(t(80)), app: com.example.clip, phone: visitor }
          - { token: \(t(81)), app: com.example.app, phone: ephemeral }
          - { token: \(t(82)), app: com.example.app, phone: swiped }
        """

    /// Moves the mock's clock by `duration` (`POST /v1/clock`).
    static func advance(_ control: MockAPNsControlAPI, _ duration: String) async throws {
        let moved = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "\#(duration)"}"#)
        #expect(moved.status == 200, "\(moved.text)")
    }

    /// An alert to the App Clip's token, whose answer must be APNs's 200.
    static func clip(_ server: MockAPNsServer, _ body: String = PhonePush.alert()) async throws -> PhonePush.Result {
        let result = try await PhonePush.send(server, to: t(80), body, topic: "com.example.clip")
        #expect(result.status == 200, "APNs's answer never changes: \(result.body)")
        return result
    }

    /// A background push (priority 5) to token `n`.
    static func silent(_ server: MockAPNsServer, _ n: Int) async throws -> PhonePush.Result {
        try await PhonePush.send(server, to: t(n), PhonePush.background, type: "background", priority: "5")
    }

    @Test("an App Clip's alerts show for 8 h after it was last opened, then ephemeral-expired; opening it restarts")
    func appClipEightHours() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let fresh = try await Self.clip(server)
            #expect(fresh.kindAndRule == "shown alert-shown")
            #expect(fresh.device?.notes.contains { $0.contains("is an App Clip: it may notify until") } == true)

            try await Self.advance(control, "481m")
            let expired = try await Self.clip(server)
            #expect(expired.kindAndRule == "notShown ephemeral-expired")
            let reason = expired.device?.reason ?? ""
            #expect(reason.hasPrefix("com.example.clip is an App Clip, last opened 8h1m ago"), "\(reason)")
            #expect(reason.contains("lasts 8h after each launch"), "\(reason)")

            let opened = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/visitor/apps/com.example.clip", body: #"{"state": "foreground"}"#)
            #expect(opened.status == 200, "\(opened.text)")
            let clock = try await ControlCurl.call("GET", control, "/v1/clock")
            let app = opened.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.clip" }
            let openedAt = try #require(app?["lastOpened"]?.stringValue.flatMap(Timestamp.date(fromText:)))
            let now = try #require(clock.json?["now"]?.stringValue.flatMap(Timestamp.date(fromText:)))
            #expect(abs(now.timeIntervalSince(openedAt)) < 5, "set to the mock's clock (moved 481m): \(opened.text)")
            let record = try #require(server.journal.records().last { $0.kind == .phone })
            let after = record.rawJSON?["after"]?["apps"]?["com.example.clip"]
            #expect(after?["lastOpened"] == app?["lastOpened"] && after?["state"] == "foreground", "\(record)")
            #expect(record.rawJSON?["before"]?["apps"]?["com.example.clip"]?["lastOpened"]?.stringValue != nil)

            let back = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/visitor/apps/com.example.clip", body: #"{"state": "background"}"#)
            let kept = back.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.clip" }
            #expect(kept?["lastOpened"] == app?["lastOpened"], "leaving the app does not move lastOpened")
            #expect(try await Self.clip(server).kindAndRule == "shown alert-shown")
        }
    }

    @Test("an App Clip has no service extension: mutable-content shows the content as sent, with nse-app-clip")
    func appClipNoExtension() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, _ in
            let result = try await Self.clip(server, PhonePush.alert(#""mutable-content":1"#))
            #expect(result.kindAndRule == "shown alert-shown")
            #expect(result.device?.fired(.nseAppClip) == true && result.device?.fired(.nseModified) == false)
            let notification = try #require(try await server.phone(id: "visitor")?.apps.first?.notifications.first)
            #expect(notification.title == "Order ready", "the extension's set is not applied")
        }
    }

    @Test("authorization ephemeral counts 8 h from lastOpened too, with a note that it is an App Clip's")
    func ephemeralAuthorization() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let old = try await PhonePush.send(server, to: Self.t(81), PhonePush.alert())
            #expect(old.kindAndRule == "notShown ephemeral-expired")
            #expect((old.device?.reason ?? "").contains("authorization is ephemeral"), "\(old.device?.reason ?? "")")
            #expect(old.device?.notes.contains { $0.hasPrefix("authorization ephemeral is an App Clip's") } == true)
            let set = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/ephemeral/apps/com.example.app", body: #"{"lastOpened": null}"#)
            #expect(set.status == 200, "\(set.text)")
            let renewed = try await PhonePush.send(server, to: Self.t(81), PhonePush.alert())
            #expect(renewed.kindAndRule == "shown alert-shown", "null: counted from the load time again")
            let bad = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/ephemeral/apps/com.example.app", body: #"{"lastOpened": "noon"}"#)
            #expect(bad.status == 400 && bad.error?.hasPrefix("lastOpened: expected an ISO 8601 time") == true)
        }
    }

    /// A phone `idle` under `inactiveAppAfter: 72h`.
    static let inactive = """
        phones:
          idle: {}
        devices:
          - { token: \(t(83)), app: com.example.app, phone: idle }
        simulation: { inactiveAppAfter: 72h }
        """

    @Test("under inactiveAppAfter an app not opened for longer is not launched (background-app-inactive)")
    func inactiveApp() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.inactive)) { server, control in
            #expect(try await Self.silent(server, 83).kindAndRule == "launched background-launched")
            try await Self.advance(control, "73h")
            let idle = try await Self.silent(server, 83)
            #expect(idle.status == 200 && idle.kindAndRule == "notLaunched background-app-inactive")
            #expect((idle.device?.reason ?? "").contains("longer than inactiveAppAfter (72h)"))
            #expect(idle.device?.notes.contains("open: inactiveAppAfter = 72h") == true)
            let alert = try await PhonePush.send(server, to: Self.t(83), PhonePush.alert(#""content-available":1"#))
            #expect(alert.kindAndRule == "shown alert-shown", "the alert part shows")
            #expect(alert.device?.fired(.backgroundAppInactive) == true, "its launch does not happen")
            let undeclared = try await Self.silent(server, 84)
            #expect(undeclared.kindAndRule == "notLaunched background-app-inactive", "an implicit phone too")

            let app = "/v1/phones/idle/apps/com.example.app"
            for state in ["foreground", "background"] {
                let answer = try await ControlCurl.call("PATCH", control, app, body: #"{"state": "\#(state)"}"#)
                #expect(answer.status == 200, "\(answer.text)")
            }
            #expect(try await Self.silent(server, 83).kindAndRule == "launched background-launched")
            let document = try await ControlCurl.call("GET", control, "/v1/scenario")
            #expect(document.json?["simulation"]?["inactiveAppAfter"] == "72h", "\(document.text)")
        }
    }

    @Test("POST /v1/phones/{id}/restart: force-quit and foreground apps become notRunning; a phone record; 404")
    func restart() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            #expect(try await Self.silent(server, 82).kindAndRule == "notLaunched background-force-quit")
            let restarted = try await ControlCurl.call("POST", control, "/v1/phones/swiped/restart")
            #expect(restarted.status == 200, "\(restarted.text)")
            let states = Dictionary(
                uniqueKeysWithValues: (restarted.json?["apps"]?.arrayValue ?? []).compactMap { app in
                    app["bundleID"]?.stringValue.map { ($0, app["state"]?.stringValue ?? "") }
                })
            #expect(
                states == [
                    "com.example.app": "notRunning", "com.example.other": "notRunning",
                    "com.example.third": "background",
                ], "\(restarted.text)")
            let record = try #require(server.journal.records().last { $0.kind == .phone })
            #expect(record.rawJSON?["phone"] == "swiped" && record.rawJSON?["action"] == "restart", "\(record)")
            #expect(record.rawJSON?["before"]?["apps"]?["com.example.app"]?["state"] == "forceQuit")
            #expect(record.rawJSON?["after"]?["apps"]?["com.example.app"]?["state"] == "notRunning")
            let launched = try await Self.silent(server, 82)
            #expect(launched.kindAndRule == "launched background-launched")
            #expect((launched.device?.reason ?? "").contains("it was not running"))

            let count = server.journal.records().filter { $0.kind == .phone }.count
            let byToken = try await ControlCurl.call("POST", control, "/v1/phones/\(Self.t(82).uppercased())/restart")
            #expect(byToken.status == 200 && byToken.json?["id"] == "swiped", "\(byToken.text)")
            #expect(
                server.journal.records().filter { $0.kind == .phone }.count == count + 1,
                "a restart that changes nothing is still recorded")
            let unknown = try await ControlCurl.call("POST", control, "/v1/phones/carol/restart")
            #expect(unknown.status == 404 && unknown.error?.hasPrefix("no phone 'carol'") == true, "\(unknown.text)")
            let wrongMethod = try await ControlCurl.call("GET", control, "/v1/phones/swiped/restart")
            #expect(wrongMethod.status == 404 || wrongMethod.status == 405, "\(wrongMethod.text)")
        }
    }

    @Test("restart from the Swift client and from mock-apns phone ID --restart")
    func restartFromClientAndCLI() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let client = MockAPNsControlClient(url: control.url)
            let phone = try await client.restartPhone(id: "swiped")
            #expect(phone.state.app("com.example.app").state == .notRunning)
            #expect(phone.apps.allSatisfy { $0.onPhone.lastOpened != nil }, "lastOpened is shown as a time")
            await #expect(throws: MockAPNsControlError.self) { try await client.restartPhone(id: "carol") }

            _ = try await server.setApp("com.example.app", on: "swiped", state: .forceQuit)
            let url = control.url
            let cli = try await CLITests.run(["phone", "swiped", "--restart", "--control-url", url])
            #expect(cli.status == 0, "\(cli.errors)")
            #expect(cli.output.contains("com.example.app: notRunning"), "\(cli.output)")
            #expect(cli.output.contains("last opened "), "\(cli.output)")
            let missing = try await CLITests.run(["phone", "carol", "--restart", "--control-url", url])
            #expect(missing.status != 0 && missing.errors.contains("no phone 'carol'"), "\(missing.errors)")
        }
    }
}
