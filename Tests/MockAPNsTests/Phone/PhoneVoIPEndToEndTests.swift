import Foundation
import Testing

@testable import MockAPNs

/// The VoIP walk (phone.md §4, VoIP) over HTTP/2: a call reported, an app killed for not reporting, and the
/// suspension that follows.
@Suite("phone: VoIP pushes end to end", .serialized)
struct PhoneVoIPEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        apps:
          - bundleID: com.example.app
            voip:
              - { match: { payload: { callID: { exists: false } } }, does: doesNotReport }
              - { does: reports, set: { caller: Mum } }
          - bundleID: com.example.broken
            voip: doesNotReport
        phones:
          open: { apps: { com.example.broken: { state: foreground } } }
          calling: { callActive: true }
          sleeping: { focus: { name: Sleep, allowedPeople: [Dad] } }
        devices:
          - { token: \(t(50)), kind: voip, phone: open }
          - { token: \(t(51)), kind: voip, phone: calling }
          - { token: \(t(52)), kind: voip, phone: sleeping }
        """

    static func call(
        _ server: MockAPNsServer, _ n: Int, topic: String = "com.example.app.voip", body: String = PhonePush.voip
    ) async throws -> PhonePush.Result {
        let result = try await PhonePush.send(
            server, to: t(n), body, type: "voip", topic: topic, priority: "10", extra: ["apns-expiration": "0"])
        #expect(result.status == 200)
        return result
    }

    @Test("reported, or killed for not reporting; the 2nd failure warns of suspension (phone.md §7, 6)")
    func reportOrDie() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let reported = try await Self.call(server, 1)
            #expect(reported.kindAndRule == "reported voip-reported")
            let first = try await Self.call(server, 1, body: #"{"caller":"Mum"}"#)
            #expect(first.kindAndRule == "terminated voip-not-reported" && first.device?.warnings == [])
            #expect(
                first.device?.reason
                    == "com.example.app did not report the call to CallKit before the delegate returned: iOS kills it "
                    + "(NSInternalInconsistencyException)")
            let second = try await Self.call(server, 1, body: #"{"caller":"Mum"}"#)
            #expect(
                second.kindAndRule == "terminated voip-not-reported"
                    && second.device?.fired(.voipSuspensionRisk) == true)
            #expect(try await Self.call(server, 2).kindAndRule == "reported voip-reported", "failures are per phone")
            #expect(try await Self.call(server, 1).kindAndRule == "reported voip-reported", "no suspension by default")
        }
    }

    @Test("under voipSuspendAfter 3 the 4th push after three failures is not launched")
    func suspended() async throws {
        let scenario = try PhonePush.scenario(Self.world + "\nsimulation: { voipSuspendAfter: 3 }\n")
        try await withTestServer(scenario: scenario) { server in
            for _ in 1...3 {
                #expect(try await Self.call(server, 3, topic: "com.example.broken.voip").device?.kind == .terminated)
            }
            let fourth = try await Self.call(server, 3, topic: "com.example.broken.voip")
            #expect(fourth.kindAndRule == "notLaunched voip-suspended")
        }
    }

    @Test("no report needed in the foreground or during a call; always under voipMustReport: always")
    func exemptions() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let open = try await Self.call(server, 50, topic: "com.example.broken.voip")
            #expect(open.kindAndRule == "launched voip-no-report-needed")
            let calling = try await Self.call(server, 51, topic: "com.example.broken.voip")
            #expect(calling.kindAndRule == "launched voip-no-report-needed")
            #expect(calling.device?.reason?.contains("a call is in progress") == true)
        }
        let strict = try PhonePush.scenario(Self.world + "\nsimulation: { voipMustReport: always }\n")
        try await withTestServer(scenario: strict) { server in
            let open = try await Self.call(server, 50, topic: "com.example.broken.voip")
            #expect(open.kindAndRule == "terminated voip-not-reported")
        }
    }

    @Test("a call from someone a Focus does not allow is reported, with the note voip-call-silenced")
    func silenced() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let result = try await Self.call(server, 52)
            #expect(result.kindAndRule == "reported voip-reported" && result.device?.fired(.voipCallSilenced) == true)
        }
    }
}
