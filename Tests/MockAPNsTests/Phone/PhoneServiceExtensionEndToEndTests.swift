import Foundation
import Testing

@testable import MockAPNs

/// The notification service extension (phone.md §4, `mutable-content: 1`) over HTTP/2: whether it runs, what it
/// leaves, and what a failure of it shows.
@Suite("phone: service extension end to end", .serialized)
struct PhoneServiceExtensionEndToEndTests {
    static let t = PhonePush.token

    static let apps = """
        apps:
          - bundleID: com.example.app
            entitlements: [filtering]
            serviceExtension:
              does: modify
              set: { title: New message, body: From Mum }
              cases:
                - { match: { payload: { mode: hang } }, does: hang }
                - { match: { payload: { mode: crash } }, does: crash }
                - { match: { payload: { mode: expire } }, does: expire, set: { title: Best attempt } }
                - { match: { payload: { mode: suppress } }, does: suppress }
          - bundleID: com.example.plain
            entitlements: []
            serviceExtension: { does: suppress }
          - bundleID: com.example.assumed
            serviceExtension: { does: suppress }
          - bundleID: com.example.none
            serviceExtension: none
          - bundleID: com.example.heavy
            serviceExtension: { does: modify, peakMemory: 30MiB }
          - bundleID: com.example.keychain
            serviceExtension: { does: modify, protectedData: true }
        phones:
          locked: { locked: true }
          no-alerts:
            apps: { com.example.app: { settings: { alerts: false, lockScreen: false, notificationCenter: false } } }
        devices:
          - { token: \(t(30)), phone: locked }
          - { token: \(t(31)), phone: no-alerts }
        """

    /// A mutable-content alert with `mode` as a custom key.
    static func push(_ mode: String, alert: String = #""alert":{"title":"Encrypted"}"#) -> String {
        #"{"aps":{"mutable-content":1,\#(alert)},"mode":"\#(mode)","ciphertext":"…"}"#
    }

    @Test("mutable-content without alert text: the extension does not run and nothing is shown (phone.md §7, 2)")
    func noAlertText() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.apps)) { server in
            let bare = try await PhonePush.send(
                server, to: Self.t(1), #"{"aps":{"mutable-content":1},"ciphertext":"…"}"#)
            #expect(bare.status == 200 && bare.kindAndRule == "notShown nse-no-alert")
            #expect(
                bare.device?.reason
                    == "mutable-content is 1 but aps.alert has no title, subtitle or body, localized or not: the "
                    + "service extension does not run, and there is nothing to show")
            let localized = try await PhonePush.send(
                server, to: Self.t(1), Self.push("x", alert: #""alert":{"loc-key":"Notification"}"#))
            #expect(localized.kindAndRule == "shown alert-shown" && localized.device?.fired(.nseModified) == true)
            let withBadge = try await PhonePush.send(server, to: Self.t(1), #"{"aps":{"mutable-content":1,"badge":1}}"#)
            #expect(withBadge.kindAndRule == "applied badge-only" && withBadge.device?.fired(.nseNoAlert) == true)
            #expect(withBadge.device?.warnings.first?.hasPrefix("nse-no-alert:") == true)
        }
    }

    @Test("the extension's cases: modify, expire, hang, crash, suppress with and without the filtering entitlement")
    func cases() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.apps)) { server in
            let modified = try await PhonePush.send(server, to: Self.t(1), Self.push("ordinary"))
            #expect(modified.kindAndRule == "shown alert-shown")
            #expect(modified.device?.trace == [.nseModified, .alertShown])
            let expired = try await PhonePush.send(server, to: Self.t(1), Self.push("expire"))
            #expect(expired.kindAndRule == "shown alert-shown" && expired.device?.fired(.nseExpiredFallback) == true)
            let hang = try await PhonePush.send(server, to: Self.t(1), Self.push("hang"))
            #expect(hang.device?.kind == .shown && hang.device?.rule == .nseExpiredOriginal)
            #expect(hang.device?.warnings.first?.contains("the original content is shown") == true)
            let crash = try await PhonePush.send(server, to: Self.t(1), Self.push("crash"))
            #expect(crash.device?.rule == .nseKilled)
            let suppressed = try await PhonePush.send(server, to: Self.t(1), Self.push("suppress"))
            #expect(suppressed.kindAndRule == "notShown nse-suppressed")
            let unentitled = try await PhonePush.send(
                server, to: Self.t(1), Self.push("x"), topic: "com.example.plain")
            #expect(unentitled.device?.kind == .shown && unentitled.device?.rule == .nseSuppressNoEntitlement)
            let assumed = try await PhonePush.send(
                server, to: Self.t(1), Self.push("x"), topic: "com.example.assumed")
            #expect(assumed.kindAndRule == "notShown nse-suppressed", "undeclared entitlements are assumed present")
            let note =
                "com.example.assumed declares no entitlements: filtering is assumed for suppressing a notification"
            #expect(assumed.device?.notes == [note])
        }
    }

    @Test("an extension that is not there, not declared, over the memory limit, or locked out shows the original")
    func failures() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.apps)) { server in
            let none = try await PhonePush.send(server, to: Self.t(1), Self.push("x"), topic: "com.example.none")
            #expect(none.kindAndRule == "shown alert-shown" && none.device?.fired(.nseNone) == true)
            let undeclared = try await PhonePush.send(server, to: Self.t(1), Self.push("x"), topic: "com.example.other")
            #expect(undeclared.kindAndRule == "shown alert-shown" && undeclared.device?.fired(.nseUndeclared) == true)
            #expect(undeclared.device?.warnings == [], "undeclared is a note, never a warning")
            let heavy = try await PhonePush.send(server, to: Self.t(1), Self.push("x"), topic: "com.example.heavy")
            #expect(heavy.device?.rule == .nseKilled)
            #expect(heavy.device?.warnings.first?.contains("30MiB, over the 24MiB limit") == true)
            let locked = try await PhonePush.send(server, to: Self.t(30), Self.push("x"), topic: "com.example.keychain")
            #expect(locked.device?.rule == .nseLockedData)
            let unlocked = try await PhonePush.send(
                server, to: Self.t(1), Self.push("x"), topic: "com.example.keychain")
            #expect(unlocked.kindAndRule == "shown alert-shown" && unlocked.device?.fired(.nseModified) == true)
            let off = try await PhonePush.send(server, to: Self.t(31), Self.push("x"))
            #expect(off.kindAndRule == "notShown alerts-off" && off.device?.fired(.nseAlertsOff) == true)
        }
    }
}
