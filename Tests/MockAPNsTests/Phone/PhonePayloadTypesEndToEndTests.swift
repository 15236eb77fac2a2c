import Foundation
import Testing

@testable import MockAPNs

/// `apps[].payload` (phone.md §3, rule `payload-type`) over HTTP/2 with curl: pushes whose custom keys the app's code
/// cannot decode still get APNs's 200 and are still shown or launched, with the warning naming the key and where it
/// was; `expect:` and the search find them.
@Suite("phone: payload types end to end", .serialized)
struct PhonePayloadTypesEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        apps:
          - bundleID: com.example.app
            payload:
              alert: { orderID: String, deepLink: URL? }
              background: { orderID: String }
              voip: { callID: String, callerName: String }
          - bundleID: com.example.plain
            sounds: [chime.caf]
        phones:
          away: { online: false }
        devices:
          - { token: \(t(40)), phone: away }
        expect:
          - name: every custom key decodes
            match: { device: { rule: payload-type } }
            count: 0
          - name: a payload-type warning fired
            match: { device: { fired: payload-type } }
            count: { min: 1 }
        """

    static let goodAlert = #"{"aps":{"alert":{"title":"Order 42","body":"Ready"}},"orderID":"42"}"#
    static let nestedAlert = #"{"aps":{"alert":{"title":"Order 42","body":"Ready"}},"data":{"orderID":"42"}}"#

    @Test("an alert whose key is nested elsewhere is still shown, with the warning payload-type naming where it is")
    func alert() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let good = try await PhonePush.send(server, to: Self.t(1), Self.goodAlert)
            #expect(good.status == 200 && good.kindAndRule == "shown alert-shown")
            #expect(good.device?.warnings == [] && good.device?.notes == [], "\(good.device?.notes ?? [])")
            let nested = try await PhonePush.send(server, to: Self.t(1), Self.nestedAlert)
            #expect(nested.status == 200 && nested.kindAndRule == "shown payload-type", "still shown, the rule warns")
            #expect(nested.device?.trace == [.payloadType, .alertShown])
            #expect(
                nested.device?.warnings == [
                    "payload-type: orderID: missing required key; found at data.orderID: com.example.app's code "
                        + "cannot decode the custom keys of this alert push (default JSONDecoder rules); iOS still "
                        + "delivers it"
                ])
            let number = try await PhonePush.send(
                server, to: Self.t(1), #"{"aps":{"alert":"x"},"orderID":42,"deepLink":"https://x.example/a"}"#)
            #expect(
                number.device?.warnings.first?.hasPrefix("payload-type: orderID: expected String, found number") == true
            )
            let badURL = try await PhonePush.send(
                server, to: Self.t(1), #"{"aps":{"alert":"x"},"orderID":"1","deepLink":"http://a b"}"#)
            #expect(badURL.device?.warnings.first?.hasPrefix("payload-type: deepLink: invalid URL string") == true)
        }
    }

    @Test("background and VoIP pushes are checked against their own types; other apps and push types are not")
    func otherTypes() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let launched = try await PhonePush.send(
                server, to: Self.t(2), #"{"aps":{"content-available":1},"orderId":"42"}"#, type: "background",
                priority: "5")
            #expect(launched.kindAndRule == "launched payload-type", "still launched")
            #expect(
                launched.device?.warnings.first?.hasPrefix(
                    "payload-type: orderID: missing required key; found orderId at orderId, in another case: ") == true)
            let call = try await PhonePush.send(
                server, to: Self.t(2), #"{"callID":"c-1","payload":{"callerName":"Mum"}}"#, type: "voip",
                topic: "com.example.app.voip", priority: "10")
            #expect(call.kindAndRule == "reported voip-reported" && call.device?.fired(.payloadType) == true)
            #expect(
                call.device?.warnings.first?.hasPrefix(
                    "payload-type: callerName: missing required key; found at payload.callerName") == true)
            let goodCall = try await PhonePush.send(
                server, to: Self.t(2), #"{"callID":"c-2","callerName":"Mum"}"#, type: "voip",
                topic: "com.example.app.voip", priority: "10")
            #expect(goodCall.device?.warnings == [])
            let other = try await PhonePush.send(server, to: Self.t(2), Self.nestedAlert, topic: "com.example.plain")
            #expect(other.kindAndRule == "shown alert-shown" && other.device?.warnings == [])
            #expect(other.device?.notes == [], "an app that declares no payload gets no note about it")
            let ptt = try await PhonePush.send(
                server, to: Self.t(2), #"{"aps":{}}"#, type: "pushtotalk", topic: "com.example.app.voip-ptt")
            #expect(ptt.device?.fired(.payloadType) == false, "pushtotalk declares no keys")
        }
    }

    @Test("a stored push carries the warning, and so does what the phone did when it was delivered")
    func stored() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let stored = try await PhonePush.send(
                server, to: Self.t(40), Self.nestedAlert,
                extra: ["apns-expiration": String(Int(Date().timeIntervalSince1970) + 3600)])
            #expect(stored.kindAndRule == "stored stored-offline" && stored.device?.fired(.payloadType) == true)
            let online = try await ControlCurl.call("PATCH", control, "/v1/phones/away", body: #"{"online": true}"#)
            #expect(online.status == 200)
            let events = try await ControlCurl.call("GET", control, "/v1/requests/\(stored.sequence)")
            let delivered = events.json?["events"]?.arrayValue?.first?["device"]
            #expect(delivered?["outcome"] == "shown" && delivered?["rule"] == "payload-type", "\(events.text)")
        }
    }

    @Test("expect: device rule payload-type and the search device-rule:payload-type find the pushes")
    func expectationsAndSearch() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            _ = try await PhonePush.send(server, to: Self.t(3), Self.goodAlert)
            let clean = server.verify(startedAt: nil)
            #expect(clean.items.first { $0.name == "every custom key decodes" }?.passed == true)
            #expect(clean.items.first { $0.name == "a payload-type warning fired" }?.passed == false)
            let bad = try await PhonePush.send(server, to: Self.t(3), Self.nestedAlert)
            let report = server.verify(startedAt: nil)
            let none = try #require(report.items.first { $0.name == "every custom key decodes" })
            #expect(!none.passed && none.records == [bad.sequence], "\(none)")
            #expect(report.items.first { $0.name == "a payload-type warning fired" }?.passed == true)
            let verified = try await ControlCurl.call("POST", control, "/v1/verify")
            #expect(verified.json?["passed"] == false, "\(verified.text)")
            let found = try await ControlCurl.call("GET", control, "/v1/requests?q=device-rule:payload-type")
            let sequences = found.json?["records"]?.arrayValue?.compactMap { $0["sequence"]?.scalarText }
            #expect(sequences == ["\(bad.sequence)"], "\(found.text)")
            let warned = try await ControlCurl.call("GET", control, "/v1/requests?q=warnings:some")
            #expect(warned.json?["records"]?.arrayValue?.count == 1)
        }
    }
}
