import Foundation
import Testing

@testable import MockAPNs

/// Delivery timing after the 200 (issue 23 items 2, 4, 5) over HTTP/2 with curl: the events of held background pushes
/// (coalesced, launched, dropped) under the movable clock and the person's changes, `powerStorage`, a VoIP push
/// delivered late, and the default phone of an undeclared token in the phone list.
@Suite("phone: held pushes, power storage and late delivery, end to end", .serialized)
struct PhoneTimingEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        apps:
          - bundleID: com.example.app
            voip: doesNotReport
        phones:
          saving: { lowPowerMode: true }
          away: { online: false }
        devices:
          - { token: \(t(60)), app: com.example.app, phone: saving }
          - { token: \(t(61)), kind: voip, phone: away }
          - { token: \(t(62)), app: com.example.app }
        """

    /// The `device-event` records of push `sequence`, in order: `event rule` each.
    static func events(_ server: MockAPNsServer, of sequence: UInt64) -> [String] {
        server.journal.records().compactMap(\.deviceEvent).filter { $0.push == sequence }.map {
            "\($0.event.kind.rawValue) \($0.event.rule?.id ?? "-")"
        }
    }

    /// The last `device-event` record of push `sequence`.
    static func lastEvent(_ server: MockAPNsServer, of sequence: UInt64) -> DeviceEventRecord? {
        server.journal.records().compactMap(\.deviceEvent).last { $0.push == sequence }
    }

    static func silent(_ server: MockAPNsServer, _ n: Int) async throws -> PhonePush.Result {
        let result = try await PhonePush.send(
            server, to: t(n), PhonePush.background, type: "background", priority: "5")
        #expect(result.status == 200)
        return result
    }

    static func patch(_ control: MockAPNsControlAPI, _ path: String, _ body: String) async throws {
        let answer = try await ControlCurl.call("PATCH", control, path, body: body)
        #expect(answer.status == 200, "\(path) \(body): \(answer.text)")
    }

    @Test("Low Power Mode: a newer held push coalesces the older; the end of Low Power Mode launches it")
    func lowPowerCoalescedThenLaunched() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let first = try await Self.silent(server, 60)
            let second = try await Self.silent(server, 60)
            #expect(first.kindAndRule == "held background-low-power")
            #expect(second.kindAndRule == "held background-low-power")
            #expect(Self.events(server, of: first.sequence) == ["replaced background-coalesced"])
            let coalesced = try #require(Self.lastEvent(server, of: first.sequence))
            #expect(coalesced.event.related == second.sequence, "#\(first.sequence) was replaced by the newer one")
            #expect(second.device?.notes.contains("replaces #\(first.sequence), held for com.example.app before it "
                + "(one held push per app)") == true)

            try await Self.patch(control, "/v1/phones/saving", #"{"lowPowerMode": false}"#)
            #expect(Self.events(server, of: second.sequence) == ["launched background-held-launched"])
            let launched = try #require(Self.lastEvent(server, of: second.sequence))
            #expect(launched.event.reason == "Low Power Mode ended: iOS launches com.example.app for the background "
                + "push it held")
            let phone = try await ControlCurl.call("GET", control, "/v1/phones/saving")
            #expect(phone.json?["apps"]?.arrayValue?.allSatisfy { $0["held"] == .null } == true)
            let record = try await ControlCurl.call("GET", control, "/v1/requests/\(second.sequence)")
            let listed = record.json?["events"]?.arrayValue?.compactMap { $0["rule"]?.stringValue }
            #expect(listed == ["background-held-launched"], "\(record.text)")
            #expect(Self.events(server, of: first.sequence) == ["replaced background-coalesced"], "no second event")
        }
    }

    @Test("opening the app launches its held push; a force-quit drops it")
    func openedOrForceQuit() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let app = "/v1/phones/saving/apps/com.example.app"
            let opened = try await Self.silent(server, 60)
            try await Self.patch(control, app, #"{"state": "foreground"}"#)
            #expect(Self.events(server, of: opened.sequence) == ["launched background-held-launched"])
            #expect(
                Self.lastEvent(server, of: opened.sequence)?.event.reason
                    == "the person opened com.example.app: iOS hands it the background push it held")

            try await Self.patch(control, app, #"{"state": "background"}"#)
            let quit = try await Self.silent(server, 60)
            #expect(quit.kindAndRule == "held background-low-power")
            try await Self.patch(control, app, #"{"state": "forceQuit"}"#)
            #expect(Self.events(server, of: quit.sequence) == ["dropped background-held-discarded"])
            let record = try #require(server.journal.records().last { $0.kind == .phone })
            #expect(
                record.rawJSON?["released"]
                    == .array([.object([("app", "com.example.app"), ("push", .number(String(quit.sequence)))])]))
            try await Self.patch(control, "/v1/phones/saving", #"{"lowPowerMode": false}"#)
            #expect(Self.events(server, of: quit.sequence) == ["dropped background-held-discarded"])
        }
    }

    @Test("backgroundBudget 3: #4 and #5 held, #4 coalesced; an hour after #1, #5 is launched (phone.md §7, 7)")
    func budgetNextWindow() async throws {
        let scenario = try PhonePush.scenario("simulation: { backgroundBudget: 3, backgroundBudgetWindow: 1h }\n")
        try await withControlServer(scenario: scenario) { server, control in
            var sent: [PhonePush.Result] = []
            for _ in 1...3 {
                sent.append(try await Self.silent(server, 63))
                _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "2m"}"#)
            }
            sent.append(try await Self.silent(server, 63))
            sent.append(try await Self.silent(server, 63))
            #expect(sent.map(\.device?.kind) == [.launched, .launched, .launched, .held, .held])
            #expect(Self.events(server, of: sent[3].sequence) == ["replaced background-coalesced"])
            let firstAt = try #require(server.journal.records().first { $0.sequence == sent[0].sequence }).receivedAt

            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "50m"}"#)
            #expect(Self.events(server, of: sent[4].sequence).isEmpty, "the window has no room yet")
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "5m"}"#)
            #expect(Self.events(server, of: sent[4].sequence) == ["launched background-held-launched"])
            let launched = try #require(Self.lastEvent(server, of: sent[4].sequence))
            #expect(
                abs(launched.at.timeIntervalSince(firstAt) - 3600) < 1, "at the moment #1 left the window, not later")
            #expect(launched.event.reason?.hasSuffix("(heldRelease: nextWindow)") == true)

            // The release counts against the budget: the window holds #2, #3 and #5, so the next push is held.
            let next = try await Self.silent(server, 63)
            #expect(next.kindAndRule == "held background-budget")
        }
    }

    @Test("heldRelease onOpen: the clock releases nothing; opening the app does")
    func budgetOnOpen() async throws {
        let scenario = try PhonePush.scenario(
            "simulation: { backgroundBudget: 1, heldRelease: onOpen }\n")
        try await withControlServer(scenario: scenario) { server, control in
            #expect(try await Self.silent(server, 64).device?.kind == .launched)
            let held = try await Self.silent(server, 64)
            #expect(held.kindAndRule == "held background-budget")
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "3h"}"#)
            _ = try await ControlCurl.call("GET", control, "/v1/phones")
            #expect(Self.events(server, of: held.sequence).isEmpty)
            try await Self.patch(
                control, "/v1/phones/\(Self.t(64))/apps/com.example.app", #"{"state": "foreground"}"#)
            #expect(Self.events(server, of: held.sequence) == ["launched background-held-launched"])
            let written = try await ControlCurl.call("GET", control, "/v1/scenario")
            #expect(written.json?["simulation"]?["heldRelease"] == "onOpen")
        }
    }

    @Test("powerStorage lowPriority: priority 5 waits in APNs's storage while Low Power Mode is on")
    func powerStorage() async throws {
        let scenario = try PhonePush.scenario(Self.world + "\nsimulation: { powerStorage: lowPriority }\n")
        try await withControlServer(scenario: scenario) { server, control in
            let low = try await PhonePush.send(server, to: Self.t(60), PhonePush.alert(), priority: "5")
            #expect(low.status == 200 && low.kindAndRule == "stored stored-power")
            #expect(low.device?.notes.contains("open: powerStorage = lowPriority") == true)
            let silent = try await Self.silent(server, 60)
            #expect(silent.kindAndRule == "stored stored-power", "APNs stores it before the phone could hold it")
            #expect(Self.events(server, of: low.sequence) == ["replaced storage-replaced"], "one per token and topic")
            let high = try await PhonePush.send(server, to: Self.t(60), PhonePush.alert(), priority: "10")
            #expect(high.kindAndRule == "shown alert-shown")
            let zero = try await PhonePush.send(
                server, to: Self.t(60), PhonePush.alert(), priority: "5", extra: ["apns-expiration": "0"])
            #expect(zero.kindAndRule == "shown alert-shown", "apns-expiration 0 is never stored")

            let phone = try await ControlCurl.call("GET", control, "/v1/phones/saving")
            let app = try #require(phone.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.app" })
            #expect(app["stored"]?.arrayValue?.first?["sequence"]?.unsignedValue == silent.sequence)

            try await Self.patch(control, "/v1/phones/saving", #"{"locked": true}"#)
            #expect(Self.events(server, of: silent.sequence).isEmpty, "still in Low Power Mode")
            try await Self.patch(control, "/v1/phones/saving", #"{"lowPowerMode": false}"#)
            #expect(Self.events(server, of: silent.sequence) == ["delivered storage-delivered"])
            let delivered = try #require(Self.lastEvent(server, of: silent.sequence))
            #expect(delivered.device?.kind == .launched && delivered.device?.rule == .backgroundLaunched)
            #expect(delivered.event.reason?.contains("out of Low Power Mode") == true)
            let written = try await ControlCurl.call("GET", control, "/v1/scenario")
            #expect(written.json?["simulation"]?["powerStorage"] == "lowPriority")
        }
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, _ in
            let low = try await PhonePush.send(server, to: Self.t(60), PhonePush.alert(), priority: "5")
            #expect(low.kindAndRule == "shown alert-shown", "powerStorage is off by default")
        }
    }

    @Test("a VoIP push delivered late need not be reported under ios26; under always the app is killed")
    func voipLate() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let zero = try await PhonePush.send(
                server, to: Self.t(61), PhonePush.voip, type: "voip", topic: "com.example.app.voip",
                extra: ["apns-expiration": "0"])
            #expect(zero.kindAndRule == "stored expiration-zero-retry")
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "20s"}"#)
            try await Self.patch(control, "/v1/phones/away", #"{"online": true}"#)
            #expect(Self.events(server, of: zero.sequence) == ["delivered expiration-zero-late"])
            let late = try #require(Self.lastEvent(server, of: zero.sequence)?.device)
            #expect(late.kind == .launched && late.rule == .voipNoReportNeeded)
            #expect(
                late.reason == "com.example.app did not report a call, and did not have to: it was delivered late, "
                    + "within expirationZeroGrace (mustReport is false)")

            try await Self.patch(control, "/v1/phones/away", #"{"online": false}"#)
            let hour = String(Int(server.engine.clock.now().timeIntervalSince1970) + 3600)
            let stored = try await PhonePush.send(
                server, to: Self.t(61), PhonePush.voip, type: "voip", topic: "com.example.app.voip",
                extra: ["apns-expiration": hour])
            try await Self.patch(control, "/v1/phones/away", #"{"online": true}"#)
            let fromStorage = try #require(Self.lastEvent(server, of: stored.sequence)?.device)
            #expect(fromStorage.kind == .launched && fromStorage.rule == .voipNoReportNeeded)
            #expect(fromStorage.reason?.contains("it was delivered late, from storage") == true)
            let phone = try await ControlCurl.call("GET", control, "/v1/phones/away")
            let app = phone.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.app" }
            #expect((app?["voipFailures"]?.unsignedValue ?? 0) == 0, "no failure counted")
        }
        let strict = try PhonePush.scenario(Self.world + "\nsimulation: { voipMustReport: always }\n")
        try await withControlServer(scenario: strict) { server, control in
            let zero = try await PhonePush.send(
                server, to: Self.t(61), PhonePush.voip, type: "voip", topic: "com.example.app.voip",
                extra: ["apns-expiration": "0"])
            try await Self.patch(control, "/v1/phones/away", #"{"online": true}"#)
            let late = try #require(Self.lastEvent(server, of: zero.sequence)?.device)
            #expect(late.kind == .terminated && late.rule == .voipNotReported)
            #expect(late.notes.contains { $0.hasPrefix("open: voipMustReport = always: it was delivered late") })
        }
    }

    @Test("an undeclared token's default phone is listed from its first push, by the API and mock-apns phones")
    func implicitPhoneListed() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let before = try await ControlCurl.call("GET", control, "/v1/phones")
            let declared = before.json?["phones"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
            #expect(declared == ["away", "saving", Self.t(62)])
            let shown = try await PhonePush.send(server, to: Self.t(90).uppercased(), PhonePush.alert())
            #expect(shown.kindAndRule == "shown alert-shown")
            _ = try await PhonePush.send(server, to: Self.t(90), PhonePush.alert())
            _ = try await PhonePush.send(server, to: Self.t(5), #"{"aps":{"alert":"Hi"}}"#)
            let after = try await ControlCurl.call("GET", control, "/v1/phones")
            let ids = after.json?["phones"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
            #expect(ids == ["away", "saving", Self.t(5), Self.t(62), Self.t(90)], "once each, the others by id")
            let implicit = after.json?["phones"]?.arrayValue?.first { $0["id"] == .string(Self.t(90)) }
            #expect(implicit?["declared"] == false && implicit?["tokens"] == .array([.string(Self.t(90))]))
            let app = implicit?["apps"]?.arrayValue?.first
            #expect(app?["notificationCount"] == 2)

            let url = control.url
            let list = try await CLITests.run(["phones", "--control-url", url])
            #expect(list.status == 0, "\(list.errors)")
            #expect(list.output.contains("phone \(Self.t(90))"), "\(list.output)")
            #expect(list.output.contains("phone \(Self.t(5))"), "\(list.output)")
        }
    }
}
