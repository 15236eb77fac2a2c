import Foundation
import Testing

@testable import MockAPNs

/// The walks of phone.md §4, "The others", over HTTP/2 with curl: Push to Talk, location, complication, widgets and
/// controls, File Provider and MDM, each push as a provider sends it (its `apns-push-type` and topic suffix), with
/// the phone's state changed through `PATCH /v1/phones` and the budgets on the movable clock.
@Suite("phone: Push to Talk, location, complication, widgets, File Provider and MDM end to end", .serialized)
struct PhoneOtherTypesEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        apps:
          - bundleID: com.example.app
            pushToTalk:
              - { match: { payload: { leave: { exists: true } } }, does: leaveChannel }
            fileProviderDomains: [personal, work]
          - bundleID: com.example.nolocation
            entitlements: [pushToTalk]
          - bundleID: com.example.slow
            entitlements: [locationPush]
            locationExtension: slow
        phones:
          left: { apps: { com.example.app: { pttChannel: left } } }
          swiped: { apps: { com.example.app: { state: forceQuit } } }
          whenInUse: { apps: { com.example.app: { locationAuthorization: whenInUse } } }
          watchless: { apps: { com.example.app: { complicationOnFace: false } } }
        devices:
          - { token: \(t(60)), phone: left }
          - { token: \(t(61)), phone: swiped }
          - { token: \(t(62)), phone: whenInUse }
          - { token: \(t(63)), phone: watchless }
        """

    /// Sends `body` as a push of `type` to `bundle` with that type's topic suffix; expects APNs's 200.
    static func push(
        _ server: MockAPNsServer, _ n: Int, _ type: APNsPushType, _ body: String, bundle: String = "com.example.app",
        priority: String = "10"
    ) async throws -> PhonePush.Result {
        let result = try await PhonePush.send(
            server, to: t(n), body, type: type.name, topic: bundle + type.topicSuffix, priority: priority)
        #expect(result.status == 200, "\(result.body)")
        return result
    }

    /// `member` of com.example.app on the phone of token `n`, as `GET /v1/phones/{token}` gives it.
    static func budgetUsed(_ control: MockAPNsControlAPI, _ n: Int, _ member: String) async throws -> JSONValue? {
        let phone = try await ControlCurl.call("GET", control, "/v1/phones/\(t(n))")
        let app = phone.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.app" }
        return app?[member]
    }

    static let ptt = #"{"aps":{},"speaker":"Ana"}"#
    static let location = #"{"aps":{}}"#
    static let complication = #"{"aps":{},"score":"2-1"}"#
    static let reload = #"{"aps":{"content-changed":true}}"#

    @Test("Push to Talk: active participant, no channel, leave channel, and the channel joined again by PATCH")
    func pushToTalk() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let active = try await Self.push(server, 1, .pushtotalk, Self.ptt)
            #expect(active.kindAndRule == "launched ptt-active-participant")
            #expect(active.device?.notes == [], "the app declares no entitlements list: nothing to note")
            #expect(try await Self.push(server, 60, .pushtotalk, Self.ptt).kindAndRule == "dropped ptt-no-channel")
            let leave = try await Self.push(server, 2, .pushtotalk, #"{"aps":{},"leave":true}"#)
            #expect(leave.kindAndRule == "launched ptt-leave-channel")
            let after = try await Self.push(server, 2, .pushtotalk, Self.ptt)
            #expect(after.kindAndRule == "dropped ptt-no-channel")
            let phone = try await ControlCurl.call("GET", control, "/v1/phones/\(Self.t(2))")
            let app = phone.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.app" }
            #expect(app?["pttChannel"] == "left")
            let joined = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/\(Self.t(2))/apps/com.example.app", body: #"{"pttChannel": "joined"}"#)
            #expect(joined.status == 200)
            #expect(
                try await Self.push(server, 2, .pushtotalk, Self.ptt).kindAndRule == "launched ptt-active-participant")
            let bad = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/\(Self.t(2))/apps/com.example.app", body: #"{"pttChannel": "gone"}"#)
            #expect(bad.status == 400 && bad.error?.contains("pttChannel") == true, "\(bad.error ?? "")")
            let undeclared = try await Self.push(server, 3, .pushtotalk, Self.ptt, bundle: "com.example.nolocation")
            #expect(undeclared.kindAndRule == "launched ptt-active-participant")
            let other = try await Self.push(server, 3, .pushtotalk, Self.ptt, bundle: "com.example.slow")
            #expect(other.kindAndRule == "launched ptt-active-participant", "a missing entitlement is a note")
            #expect(other.device?.notes.contains { $0.contains("declares no pushToTalk entitlement") } == true)
        }
    }

    @Test("Push to Talk to a force-quit app: launched with a note by default, dropped under pttAfterForceQuit: drop")
    func pushToTalkForceQuit() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let launched = try await Self.push(server, 61, .pushtotalk, Self.ptt)
            #expect(launched.kindAndRule == "launched ptt-active-participant")
            #expect(launched.device?.trace == [.pttForceQuit, .pttActiveParticipant])
            #expect(launched.device?.notes.contains("open: pttAfterForceQuit = launch") == true)
        }
        let drop = try PhonePush.scenario(Self.world + "\nsimulation: { pttAfterForceQuit: drop }\n")
        try await withTestServer(scenario: drop) { server in
            let dropped = try await Self.push(server, 61, .pushtotalk, Self.ptt)
            #expect(dropped.kindAndRule == "dropped ptt-force-quit")
        }
    }

    @Test("location: the extension runs; no entitlement, not authorized always and a slow extension say why")
    func location() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let ran = try await Self.push(server, 4, .location, Self.location)
            #expect(ran.kindAndRule == "launched location-extension-ran")
            #expect(ran.device?.notes.contains { $0.contains("locationPush is assumed") } == true)
            let noEntitlement = try await Self.push(
                server, 4, .location, Self.location, bundle: "com.example.nolocation")
            #expect(noEntitlement.kindAndRule == "dropped location-no-entitlement")
            #expect(noEntitlement.device?.reason?.contains("com.apple.developer.location.push") == true)
            let whenInUse = try await Self.push(server, 62, .location, Self.location)
            #expect(whenInUse.kindAndRule == "dropped location-not-authorized")
            #expect(whenInUse.device?.reason?.contains("whenInUse, not always") == true)
            let always = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/whenInUse/apps/com.example.app",
                body: #"{"locationAuthorization": "always"}"#)
            #expect(always.status == 200)
            #expect(
                try await Self.push(server, 62, .location, Self.location).kindAndRule
                    == "launched location-extension-ran")
            let slow = try await Self.push(server, 4, .location, Self.location, bundle: "com.example.slow")
            #expect(slow.kindAndRule == "terminated location-extension-slow")
        }
    }

    @Test("complication: delivered, not on the face, and 50 a day by default; the budget refills 24 h later")
    func complication() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            #expect(
                try await Self.push(server, 63, .complication, Self.complication).kindAndRule
                    == "dropped complication-not-on-face")
            var kinds: [String] = []
            for _ in 1...51 {
                kinds.append(try await Self.push(server, 5, .complication, Self.complication).kindAndRule)
            }
            #expect(kinds.prefix(50).allSatisfy { $0 == "launched complication-delivered" })
            #expect(kinds.last == "throttled complication-budget")
            let throttled = try await Self.push(server, 5, .complication, Self.complication)
            #expect(
                throttled.device?.reason
                    == "com.example.app already had 50 complication pushes within 24h (complicationPerDay 50): this "
                    + "one is not delivered")
            #expect(
                try await Self.push(server, 6, .complication, Self.complication).kindAndRule
                    == "launched complication-delivered", "the budget is per phone")
            #expect(try await Self.budgetUsed(control, 5, "complicationBudgetUsed") == 50)
            let moved = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "24h"}"#)
            #expect(moved.status == 200)
            #expect(try await Self.budgetUsed(control, 5, "complicationBudgetUsed") == 0)
            #expect(
                try await Self.push(server, 5, .complication, Self.complication).kindAndRule
                    == "launched complication-delivered")
            #expect(try await Self.budgetUsed(control, 5, "complicationBudgetUsed") == 1)
        }
    }

    @Test("complicationPerDay 2 throttles the 3rd; unlimited never does")
    func complicationSetting() async throws {
        let two = try PhonePush.scenario("simulation: { complicationPerDay: 2 }\n")
        try await withControlServer(scenario: two) { server, control in
            for _ in 1...2 {
                let kind = try await Self.push(server, 7, .complication, Self.complication).device?.kind
                #expect(kind == .launched)
            }
            #expect(try await Self.push(server, 7, .complication, Self.complication).device?.kind == .throttled)
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "23h"}"#)
            #expect(try await Self.push(server, 7, .complication, Self.complication).device?.kind == .throttled)
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "1h"}"#)
            #expect(try await Self.push(server, 7, .complication, Self.complication).device?.kind == .launched)
        }
        let unlimited = try PhonePush.scenario("simulation: { complicationPerDay: unlimited }\n")
        try await withTestServer(scenario: unlimited) { server in
            for _ in 1...3 {
                let kind = try await Self.push(server, 7, .complication, Self.complication).device?.kind
                #expect(kind == .launched)
            }
        }
    }

    @Test("widgets and controls reload; widgetPushesPerDay counts both and refills 24 h later")
    func widgets() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let widget = try await Self.push(server, 8, .widgets, Self.reload)
            #expect(widget.kindAndRule == "applied widget-reload" && widget.device?.notes == [])
            #expect(try await Self.push(server, 8, .controls, Self.reload).kindAndRule == "applied controls-reload")
            let bare = try await Self.push(server, 8, .widgets, #"{"aps":{}}"#)
            #expect(bare.kindAndRule == "applied widget-reload")
            #expect(bare.device?.notes.first?.hasPrefix("aps.content-changed is not true") == true)
        }
        let budget = try PhonePush.scenario("simulation: { widgetPushesPerDay: 2 }\n")
        try await withControlServer(scenario: budget) { server, control in
            #expect(try await Self.push(server, 9, .widgets, Self.reload).kindAndRule == "applied widget-reload")
            #expect(try await Self.push(server, 9, .controls, Self.reload).kindAndRule == "applied controls-reload")
            let third = try await Self.push(server, 9, .widgets, Self.reload)
            #expect(third.kindAndRule == "throttled widget-budget")
            #expect(third.device?.reason?.contains("(widgetPushesPerDay 2)") == true)
            #expect(try await Self.push(server, 10, .widgets, Self.reload).device?.kind == .applied, "per phone")
            #expect(try await Self.budgetUsed(control, 9, "widgetBudgetUsed") == 2)
            _ = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "24h"}"#)
            #expect(try await Self.push(server, 9, .controls, Self.reload).kindAndRule == "applied controls-reload")
        }
    }

    @Test("File Provider: signalled for a declared domain; no domain or another domain is dropped")
    func fileProvider() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let work = try await Self.push(
                server, 11, .fileprovider,
                #"{"container-identifier":"NSFileProviderWorkingSetContainerItemIdentifier","domain":"work"}"#)
            #expect(work.kindAndRule == "launched fileprovider-signalled")
            #expect(
                work.device?.reason
                    == "the system calls signalEnumerator(for: NSFileProviderWorkingSetContainerItemIdentifier) in "
                    + "the domain work: com.example.app's File Provider extension enumerates the changes")
            let none = try await Self.push(
                server, 11, .fileprovider,
                #"{"container-identifier":"NSFileProviderWorkingSetContainerItemIdentifier"}"#)
            #expect(none.kindAndRule == "dropped fileprovider-no-domain")
            #expect(none.device?.reason?.contains("adds the File Provider domains personal, work") == true)
            let other = try await Self.push(server, 11, .fileprovider, #"{"domain":"shared"}"#)
            #expect(other.kindAndRule == "dropped fileprovider-no-domain")
            let undeclared = try await Self.push(
                server, 11, .fileprovider, #"{"container-identifier":"root"}"#, bundle: "com.example.slow")
            #expect(undeclared.kindAndRule == "launched fileprovider-signalled")
            #expect(undeclared.device?.notes.contains { $0.contains("declares no fileProviderDomains") } == true)
        }
    }

    @Test("MDM: the device checks in")
    func mdm() async throws {
        try await withTestServer { server in
            let result = try await PhonePush.send(
                server, to: Self.t(12), #"{"mdm":"8F1D2A5B-PUSHMAGIC"}"#, type: "mdm",
                topic: "com.apple.mgmt.External.5f3a4a0e-1c1f-4a8e-9b6e-0f2c3d4e5f60")
            #expect(result.status == 200, "\(result.body)")
            #expect(result.kindAndRule == "delivered mdm-checkin" && result.device?.notes == [])
        }
    }

    @Test("an offline phone stores a Push to Talk push in its own slot and walks it when back online")
    func offline() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/\(Self.t(13))", body: #"{"online": false}"#)
            let stored = try await Self.push(server, 13, .pushtotalk, Self.ptt)
            #expect(stored.kindAndRule == "stored stored-offline")
            let alert = try await PhonePush.send(server, to: Self.t(13), PhonePush.alert())
            #expect(alert.kindAndRule == "stored stored-offline", "the alert has its own slot")
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/\(Self.t(13))", body: #"{"online": true}"#)
            let events = server.journal.records().compactMap(\.deviceEvent).filter { $0.push == stored.sequence }
            #expect(events.map(\.event.kind) == [.delivered] && events.first?.event.rule == .storageDelivered)
            #expect(events.first?.device?.kind == .launched && events.first?.device?.rule == .pttActiveParticipant)
        }
    }
}
