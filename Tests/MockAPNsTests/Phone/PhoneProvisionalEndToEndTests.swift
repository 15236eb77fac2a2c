import Foundation
import Testing

@testable import MockAPNs

/// "`provisional` caps the result at `shownQuietly`" (phone.md §4, Alert) over HTTP/2 with curl: under
/// `authorization: provisional` an alert that a Focus lets through (Time Sensitive, a communication notification from
/// an allowed person) or a critical alert is delivered quietly too, with the rule `provisional` and the rule that
/// would have shown it left in the trace; the same pushes without provisional authorization are shown.
@Suite("phone: provisional authorization caps every alert end to end", .serialized)
struct PhoneProvisionalEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        apps:
          - bundleID: com.example.app
            entitlements: [criticalAlerts, timeSensitive, communication]
            serviceExtension:
              cases: [{ match: { payload: { from: Mum } }, does: modify, communication: { sender: Mum } }]
        phones:
          trial-asleep:
            focus: { name: Sleep, timeSensitive: true, allowedPeople: [Mum] }
            apps: { com.example.app: { authorization: provisional } }
          asleep:
            focus: { name: Sleep, timeSensitive: true, allowedPeople: [Mum] }
          trial:
            apps: { com.example.app: { authorization: provisional } }
        devices:
          - { token: \(t(60)), phone: trial-asleep }
          - { token: \(t(61)), phone: asleep }
          - { token: \(t(62)), phone: trial }
        expect:
          - name: Mum's message is quiet under provisional, though the Focus allows her
            match: { device: { outcome: shownQuietly, rule: provisional, fired: focus-communication } }
          - name: no provisional alert is shown
            match: { token: \(t(60)), device: { outcome: shown } }
            count: 0
        """

    static let timeSensitive = PhonePush.alert(#""interruption-level":"time-sensitive""#)
    static let message = #"{"aps":{"mutable-content":1,"alert":{"title":"Mum","body":"Dinner at 8?"}},"from":"Mum"}"#
    static let critical = PhonePush.alert(#""sound":{"critical":1,"name":"default","volume":1}"#)
    static let quietly = "delivered quietly to Notification Center, no sound, banner or Lock Screen"

    @Test("without provisional the Focus lets Time Sensitive and Mum's message through: the control case")
    func breaksThroughWhenAuthorized() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let urgent = try await PhonePush.send(server, to: Self.t(61), Self.timeSensitive)
            #expect(urgent.status == 200 && urgent.kindAndRule == "shown focus-time-sensitive")
            let mum = try await PhonePush.send(server, to: Self.t(61), Self.message)
            #expect(mum.kindAndRule == "shown focus-communication" && mum.device?.communicationSender == "Mum")
        }
    }

    @Test("a Time Sensitive alert the Focus lets through is shownQuietly provisional, focus-time-sensitive in trace")
    func timeSensitiveThroughFocus() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let urgent = try await PhonePush.send(server, to: Self.t(60), Self.timeSensitive)
            #expect(urgent.status == 200 && urgent.kindAndRule == "shownQuietly provisional")
            #expect(urgent.device?.trace == [.focusTimeSensitive, .provisional], "\(urgent.device?.trace ?? [])")
            #expect(
                urgent.device?.reason
                    == "com.example.app is authorized provisionally: even a Time Sensitive notification that the "
                    + "Focus Sleep lets through is \(Self.quietly)")
        }
    }

    @Test("a communication notification from a person the Focus allows is shownQuietly provisional, sender kept")
    func communicationThroughFocus() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let mum = try await PhonePush.send(server, to: Self.t(60), Self.message)
            #expect(mum.status == 200 && mum.kindAndRule == "shownQuietly provisional")
            #expect(mum.device?.trace == [.nseModified, .focusCommunication, .provisional])
            #expect(mum.device?.communicationSender == "Mum")
            #expect(
                mum.device?.reason
                    == "com.example.app is authorized provisionally: even a communication notification from Mum "
                    + "that the Focus Sleep lets through is \(Self.quietly)")
            let ordinary = try await PhonePush.send(server, to: Self.t(60), PhonePush.alert())
            #expect(ordinary.kindAndRule == "withheld focus-not-allowed", "the cap never lifts a withheld alert")
            let phone = try await ControlCurl.call("GET", control, "/v1/phones/trial-asleep")
            let list = phone.json?["apps"]?.arrayValue?.first?["notifications"]?.arrayValue ?? []
            #expect(
                list.map { $0["outcome"]?.stringValue ?? "" } == ["withheld", "shownQuietly"], "\(phone.text)")
            #expect(list.last?["rule"] == "provisional" && list.last?["communication"] == .object([("sender", "Mum")]))
            let report = try await ControlCurl.call("POST", control, "/v1/verify")
            #expect(report.json?["passed"] == .bool(true), "\(report.text)")
        }
    }

    @Test("a critical alert is capped too, critical-alert in trace; a plain alert's trace is provisional alone")
    func criticalAndPlain() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let critical = try await PhonePush.send(server, to: Self.t(62), Self.critical)
            #expect(critical.kindAndRule == "shownQuietly provisional")
            #expect(critical.device?.trace == [.criticalAlert, .provisional])
            #expect(
                critical.device?.reason
                    == "com.example.app is authorized provisionally: even a critical alert is \(Self.quietly)")
            let plain = try await PhonePush.send(server, to: Self.t(62), PhonePush.alert(#""sound":"default""#))
            #expect(plain.kindAndRule == "shownQuietly provisional" && plain.device?.trace == [.provisional])
            #expect(plain.device?.reason == "com.example.app is authorized provisionally: \(Self.quietly)")
            #expect(plain.device?.notes.contains { $0.hasPrefix("sound-off") } == false, "no sound was to play")
        }
    }
}
