import Foundation
import Testing

@testable import MockAPNs

/// The alert walk (phone.md §4, Alert) over HTTP/2 and TLS: pushes a provider sends, to phones in the states the
/// scenario declares; APNs answers 200 every time and the record's device part says what the person saw.
@Suite("phone: alerts end to end", .serialized)
struct PhoneAlertEndToEndTests {
    static let t = PhonePush.token

    @Test("the default phone shows an ordinary alert; with simulation.enabled false there is no device part")
    func defaultPhone() async throws {
        try await withTestServer { server in
            let shown = try await PhonePush.send(
                server, to: Self.t(1), PhonePush.alert(#""sound":"default","badge":3"#))
            #expect(shown.status == 200 && shown.kindAndRule == "shown alert-shown")
            #expect(
                shown.device?.reason
                    == "shown: a banner, the Lock Screen and Notification Center, sound default, badge 3")
            #expect(shown.device?.trace == [.alertShown] && shown.device?.warnings == [])
            let record = try #require(server.journal.records().last)
            #expect(record.notes.isEmpty, "\(record.notes)")
        }
        let off = try PhonePush.scenario("simulation: { enabled: false }\n")
        try await withTestServer(scenario: off) { server in
            let plain = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert())
            #expect(plain.status == 200 && plain.device == nil)
            let empty = try await PhonePush.send(server, to: Self.t(1), #"{"aps":{}}"#)
            #expect(empty.device == nil)
            let notes = try #require(server.journal.records().last?.notes)
            #expect(notes.contains("the phone shows nothing: aps has no alert, sound or badge"), "the note stays")
        }
    }

    @Test("a push with nothing to show is notShown nothing-to-show, saying what is missing, and carries no note")
    func nothingToShow() async throws {
        try await withTestServer { server in
            let cases: [(String, String)] = [
                (#"{"aps":{}}"#, "aps has no alert text (title, subtitle, body or a loc-key), no sound and no badge"),
                (#"{"data":{"aps":{"alert":"x"}}}"#, "the payload has no aps"),
                (#"{"aps":"hello"}"#, "aps is not a JSON object"),
                (#"{"aps":{"alert":{"title":""}}}"#, "aps has no alert text"),
            ]
            for (payload, missing) in cases {
                let result = try await PhonePush.send(server, to: Self.t(2), payload)
                #expect(result.status == 200 && result.kindAndRule == "notShown nothing-to-show", "\(payload)")
                #expect(result.device?.reason?.hasPrefix(missing) == true, "\(payload): \(result.device?.reason ?? "")")
                let notes = try #require(server.journal.records().last?.notes)
                #expect(!notes.contains { $0.hasPrefix("the phone shows nothing") }, "\(notes)")
            }
            let badge = try await PhonePush.send(server, to: Self.t(2), #"{"aps":{"badge":0}}"#)
            #expect(badge.kindAndRule == "applied badge-only")
            #expect(badge.device?.reason?.contains("badge is set to 0") == true)
            let sound = try await PhonePush.send(server, to: Self.t(2), #"{"aps":{"sound":"default"}}"#)
            #expect(sound.kindAndRule == "shown alert-shown", "a sound alone is shown")
            let localized = try await PhonePush.send(server, to: Self.t(2), #"{"aps":{"alert":{"loc-key":"READY"}}}"#)
            #expect(localized.kindAndRule == "shown alert-shown", "a loc-key is alert text")
        }
    }

    static let people = """
        apps:
          - bundleID: com.example.app
            entitlements: []
            sounds: { chime.caf: 2s, siren.caf: 45s, tune.mp3: 3s }
            categories: [ORDER]
            willPresent: [banner, sound]
          - bundleID: com.example.chat
            entitlements: [criticalAlerts, timeSensitive]
            willPresent: [list]
          - bundleID: com.example.quiet
            willPresent: []
        phones:
          asked-never: { apps: { com.example.app: { authorization: notDetermined } } }
          denied: { apps: { com.example.app: { authorization: denied } } }
          provisional: { apps: { com.example.app: { authorization: provisional } } }
          no-banners: { apps: { com.example.app: { settings: { alerts: false } } } }
          all-off:
            apps: { com.example.app: { settings: { alerts: false, lockScreen: false, notificationCenter: false } } }
          open:
            apps:
              com.example.app: { state: foreground }
              com.example.chat: { state: foreground }
              com.example.quiet: { state: foreground }
              com.example.other: { state: foreground }
          sleeping:
            focus: { name: Sleep, allowedApps: [com.example.other], timeSensitive: true }
          filtered: { focus: { name: Work, allowedApps: [com.example.app], filter: work } }
          summary: { scheduledSummary: true, apps: { com.example.app: { settings: { inSummary: true } } } }
          muted:
            locked: true
            apps: { com.example.app: { settings: { sounds: false, badges: false, showPreviews: never } } }
          gone: { apps: { com.example.app: { installed: false } } }
          away: { online: false }
        devices:
          - { token: \(t(10)), phone: asked-never }
          - { token: \(t(11)), phone: denied }
          - { token: \(t(12)), phone: provisional }
          - { token: \(t(13)), phone: no-banners }
          - { token: \(t(14)), phone: all-off }
          - { token: \(t(15)), phone: open }
          - { token: \(t(16)), phone: sleeping }
          - { token: \(t(17)), phone: filtered }
          - { token: \(t(18)), phone: summary }
          - { token: \(t(19)), phone: muted }
          - { token: \(t(20)), phone: gone }
          - { token: \(t(21)), phone: away }
        """

    @Test("authorization, settings and uninstall: not-authorized, discarded, provisional, alerts off, stored offline")
    func authorizationAndSettings() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.people)) { server in
            func kind(_ n: Int, _ body: String = PhonePush.alert()) async throws -> PhonePush.Result {
                let result = try await PhonePush.send(server, to: Self.t(n), body)
                #expect(result.status == 200, "APNs answers 200 whatever the phone does")
                return result
            }
            #expect(try await kind(10).kindAndRule == "notShown not-authorized")
            let denied = try await kind(11)
            #expect(denied.kindAndRule == "discarded notifications-disabled")
            #expect(denied.device?.reason?.contains("Discarded – Disabled") == true)
            #expect(try await kind(12).kindAndRule == "shownQuietly provisional")
            #expect(try await kind(13).kindAndRule == "shownQuietly alerts-off-list-only")
            #expect(try await kind(14).kindAndRule == "notShown alerts-off")
            let gone = try await kind(20)
            #expect(gone.kindAndRule == "discarded app-uninstalled")
            let away = try await kind(21)
            #expect(away.kindAndRule == "stored stored-offline")
            #expect(away.device?.reason?.contains("APNs stores the push") == true)
            let zero = try await PhonePush.send(
                server, to: Self.t(21), PhonePush.alert(), extra: ["apns-expiration": "0"])
            #expect(zero.kindAndRule == "stored expiration-zero-retry")
        }
    }

    @Test("in the foreground willPresent decides: parts presented, list only, or nothing")
    func foreground() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.people)) { server in
            let app = try await PhonePush.send(server, to: Self.t(15), PhonePush.alert(#""badge":2"#))
            #expect(app.kindAndRule == "shown alert-shown" && app.device?.fired(.foregroundPresented) == true)
            let chat = try await PhonePush.send(server, to: Self.t(15), PhonePush.alert(), topic: "com.example.chat")
            #expect(chat.kindAndRule == "shownQuietly foreground-list-only")
            let quiet = try await PhonePush.send(server, to: Self.t(15), PhonePush.alert(), topic: "com.example.quiet")
            #expect(quiet.kindAndRule == "notShown foreground-not-presented")
            let other = try await PhonePush.send(server, to: Self.t(15), PhonePush.alert(), topic: "com.example.other")
            #expect(other.kindAndRule == "shown alert-shown")
            #expect(other.device?.notes.contains { $0.hasPrefix("open: willPresent not declared") } == true)
        }
    }

    @Test("a Focus withholds an app it does not allow; Time Sensitive breaks through with the capability only")
    func focus() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.people)) { server in
            let withheld = try await PhonePush.send(server, to: Self.t(16), PhonePush.alert())
            #expect(withheld.kindAndRule == "withheld focus-not-allowed")
            #expect(withheld.device?.reason?.contains("the Focus Sleep is on") == true)
            let level = #""interruption-level":"time-sensitive""#
            let entitled = try await PhonePush.send(
                server, to: Self.t(16), PhonePush.alert(level), topic: "com.example.chat")
            #expect(entitled.kindAndRule == "shown focus-time-sensitive")
            let unentitled = try await PhonePush.send(server, to: Self.t(16), PhonePush.alert(level))
            #expect(unentitled.kindAndRule == "withheld focus-not-allowed")
            #expect(unentitled.device?.fired(.timeSensitiveNoEntitlement) == true)
            let critical = #""sound":{"critical":1,"name":"siren.caf","volume":1}"#
            let downgraded = try await PhonePush.send(server, to: Self.t(16), PhonePush.alert(critical))
            #expect(downgraded.kindAndRule == "withheld focus-not-allowed", "phone.md §7 example 5, under a Focus")
            #expect(
                downgraded.device?.warnings.first?.hasPrefix("critical-no-entitlement: sound.critical is 1") == true)
            let criticalChat = try await PhonePush.send(
                server, to: Self.t(16), PhonePush.alert(critical), topic: "com.example.chat")
            #expect(criticalChat.kindAndRule == "shown critical-alert")
            let filtered = try await PhonePush.send(
                server, to: Self.t(17), PhonePush.alert(#""filter-criteria":"home""#))
            #expect(filtered.kindAndRule == "withheld focus-filter")
            let summary = try await PhonePush.send(server, to: Self.t(18), PhonePush.alert())
            #expect(summary.kindAndRule == "withheld scheduled-summary")
            let passive = try await PhonePush.send(
                server, to: Self.t(1), PhonePush.alert(#""interruption-level":"passive""#))
            #expect(passive.kindAndRule == "shownQuietly passive")
        }
    }

    @Test("critical without the entitlement is shown as an ordinary alert with a warning, its rule the downgrade")
    func criticalWithoutEntitlement() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.people)) { server in
            let critical = #""sound":{"critical":1,"name":"siren.caf","volume":1}"#
            let result = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert(critical))
            #expect(result.device?.kind == .shown && result.device?.rule == .criticalNoEntitlement)
            #expect(result.device?.trace.first == .criticalNoEntitlement && result.device?.fired(.alertShown) == true)
            #expect(
                result.device?.warnings.first
                    == "critical-no-entitlement: sound.critical is 1 but com.example.app has no critical-alerts "
                    + "entitlement: shown as an ordinary alert, not past the mute switch or a Focus")
        }
        let honour = try PhonePush.scenario(Self.people + "\nsimulation: { criticalWithoutEntitlement: honour }\n")
        try await withTestServer(scenario: honour) { server in
            let critical = #""interruption-level":"critical""#
            let result = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert(critical))
            #expect(result.kindAndRule == "shown critical-alert")
            #expect(result.device?.notes.contains("open: criticalWithoutEntitlement = honour") == true)
        }
    }

    @Test("sounds, badges, previews and categories: the modifiers of what is shown")
    func modifiers() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.people)) { server in
            let missing = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert(#""sound":"bell.caf""#))
            #expect(missing.device?.kind == .shown && missing.device?.rule == .soundNotBundled)
            #expect(
                missing.device?.warnings == [
                    "sound-not-bundled: bell.caf is not a sound com.example.app bundles: the default sound plays"
                ])
            let long = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert(#""sound":"siren.caf""#))
            #expect(long.device?.rule == .soundUnplayable && long.device?.warnings.first?.contains("45s") == true)
            let mp3 = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert(#""sound":"tune.mp3""#))
            #expect(mp3.device?.rule == .soundUnplayable)
            let bundled = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert(#""sound":"chime.caf""#))
            #expect(bundled.kindAndRule == "shown alert-shown" && bundled.device?.warnings == [])
            let category = try await PhonePush.send(server, to: Self.t(1), PhonePush.alert(#""category":"CHAT""#))
            #expect(category.device?.rule == .categoryUnknown)
            let muted = try await PhonePush.send(
                server, to: Self.t(19), PhonePush.alert(#""sound":"chime.caf","badge":1"#))
            #expect(muted.kindAndRule == "shown alert-shown")
            #expect(muted.device?.trace == [.alertShown, .soundOff, .badgeOff, .previewHidden])
            let undeclared = try await PhonePush.send(
                server, to: Self.t(1), PhonePush.alert(#""sound":"x.caf""#), topic: "com.example.other")
            #expect(
                undeclared.device?.warnings == []
                    && undeclared.device?.notes == ["com.example.other declares no sounds: x.caf is not checked"])
        }
    }

    @Test("apns-collapse-id replaces the notification on the phone's list: the new push points at the old one")
    func collapse() async throws {
        try await withTestServer { server in
            let first = try await PhonePush.send(
                server, to: Self.t(3), PhonePush.alert(), extra: ["apns-collapse-id": "order-42"])
            #expect(first.kindAndRule == "shown alert-shown" && first.device?.related == nil)
            let second = try await PhonePush.send(
                server, to: Self.t(3), PhonePush.alert(), extra: ["apns-collapse-id": "order-42"])
            #expect(second.kindAndRule == "shown collapse-replaced" && second.device?.related == first.sequence)
            #expect(
                second.device?.notes
                    == [
                        "collapse-replaced: replaced the notification of #\(first.sequence) (apns-collapse-id "
                            + "order-42); it moves to the top"
                    ])
            let other = try await PhonePush.send(
                server, to: Self.t(4), PhonePush.alert(), extra: ["apns-collapse-id": "order-42"])
            #expect(other.device?.related == nil, "another phone's list")
            let otherID = try await PhonePush.send(
                server, to: Self.t(3), PhonePush.alert(), extra: ["apns-collapse-id": "order-43"])
            #expect(otherID.device?.related == nil)
            let third = try await PhonePush.send(
                server, to: Self.t(3), PhonePush.alert(), extra: ["apns-collapse-id": "order-42"])
            #expect(third.device?.related == second.sequence)
        }
    }

    @Test("a push type the payload disagrees with gets a note; the payload decides")
    func typeMismatch() async throws {
        try await withTestServer { server in
            let background = try await PhonePush.send(
                server, to: Self.t(5), PhonePush.alert(), type: "background", priority: "5")
            #expect(background.kindAndRule == "shown alert-shown")
            #expect(background.device?.notes.first?.hasPrefix("a background push with alert content") == true)
            let alert = try await PhonePush.send(server, to: Self.t(5), PhonePush.background, priority: "5")
            #expect(alert.kindAndRule == "launched background-launched")
            #expect(alert.device?.notes.first?.hasPrefix("an alert push with only content-available") == true)
        }
    }
}
