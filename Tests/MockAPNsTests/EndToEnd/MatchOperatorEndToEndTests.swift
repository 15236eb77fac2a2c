import Foundation
import Testing
@testable import MockAPNs

/// Rules whose `match` uses value operators, answering real pushes over TLS and HTTP/2 (curl).
@Suite("Match operators end to end", .serialized)
struct MatchOperatorEndToEndTests {
    static func push(
        _ server: MockAPNsServer, token: String, headers: [String: String] = [:], body: String
    ) async throws -> Curl.Response {
        try await Curl.request(
            port: server.port, path: "/3/device/\(token)", headers: EndToEndTests.pushHeaders(headers), body: body)
    }

    @Test("regex, oneOf, min/max and exists decide which pushes a rule answers")
    func operatorsAnswerPushes() async throws {
        let gone = ScriptedRulesEndToEndTests.token(1)
        let busy = ScriptedRulesEndToEndTests.token(2)
        let rules = """
              - name: orders are throttled
                match:
                  token: { oneOf: ["\(gone)", "\(busy)"] }
                  headers: { apns-priority: { min: 10 } }
                  payload:
                    aps.alert.title: { regex: "^Order [0-9]+" }
                    aps.badge: { min: 1, max: 9 }
                    aps.sound: { exists: false }
                respond: { reason: TooManyRequests }
            """
        let matching = #"{"aps":{"alert":{"title":"Order 42 ready"},"badge":3}}"#
        try await withTestServer(scenario: try ScriptedRulesEndToEndTests.scenario(rules)) { server in
            let hit = try await Self.push(server, token: busy, headers: ["apns-priority": "10"], body: matching)
            #expect(hit.status == 429)
            #expect(hit.body == #"{"reason":"TooManyRequests"}"#)
            await #expect(
                try Self.push(server, token: gone, headers: ["apns-priority": "10"], body: matching).status == 429)

            func alert(_ aps: String) -> String { #"{"aps":{"alert":{"title":"# + aps + "}}" }
            let urgent = ["apns-priority": "10"]
            let misses: [(String, String, [String: String], String)] = [
                ("token not in oneOf", ScriptedRulesEndToEndTests.token(3), urgent, matching),
                ("priority below min", busy, ["apns-priority": "5"], matching),
                ("title fails the regex", busy, urgent, alert(#""Your order"},"badge":3"#)),
                ("badge above max", busy, urgent, alert(#""Order 1"},"badge":10"#)),
                ("badge is a string", busy, urgent, alert(#""Order 1"},"badge":"3""#)),
                ("sound exists", busy, urgent, alert(#""Order 1"},"badge":3,"sound":"a""#)),
            ]
            for (label, token, headers, body) in misses {
                await #expect(
                    try Self.push(server, token: token, headers: headers, body: body).status == 200, "\(label)")
            }
            let records = server.journal.records()
            #expect(records.filter { $0.rule == "scripted:orders are throttled" }.count == 2)
        }
    }

    @Test("POST /v1/rules takes operators, refuses a bad one with 422, and GET /v1/scenario writes them back")
    func operatorsOverControlAPI() async throws {
        try await withControlServer { server, control in
            let bad = try await ControlCurl.call(
                "POST", control, "/v1/rules", body: #"{"match": {"payload": {"aps.alert.title": {"regx": "x"}}}, "#
                    + #""respond": {"reason": "TooManyRequests"}}"#)
            #expect(bad.status == 422)
            #expect(bad.error?.contains("did you mean 'regex'?") == true, "\(bad.text)")
            let yaml = """
                - name: titles
                  match: { payload: { aps.alert.title: { regex: "^Order ready$" } } }
                  respond: { reason: TooManyRequests }
                """
            #expect(try await ControlCurl.call("POST", control, "/v1/rules", body: yaml).status == 201)
            #expect(try await sendPush(server) == 429)
            #expect(try await sendPush(server, body: #"{"aps":{"alert":{"title":"Order ready!"}}}"#) == 200)
            let snapshot = try await ControlCurl.call("GET", control, "/v1/scenario")
            let rule = snapshot.json?["rules"]?.arrayValue?.first
            #expect(rule?["match"]?["payload"]?["aps.alert.title"]?["regex"] == "^Order ready$", "\(snapshot.text)")
        }
    }
}
