import Foundation
import Testing

@testable import MockAPNs

/// `POST /v1/requests/{seq}/replay` over real sockets: pushes sent with curl over HTTP/2 and TLS, the control API
/// called with curl over HTTP/1.1.
@Suite("Replay through the control API", .serialized)
struct ReplayAPITests {
    static let device = EndToEndTests.device

    /// `POST /v1/requests/{sequence}/replay` with `body`.
    static func replay(_ control: MockAPNsControlAPI, _ sequence: String, body: String? = nil) async throws
        -> ControlCurl.Answer
    {
        try await ControlCurl.call("POST", control, "/v1/requests/\(sequence)/replay", body: body)
    }

    @Test("replays a push as recorded: a new record with replayOf, on no connection, decided the same way")
    func replaysAsRecorded() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            let original = try #require(try await ControlCurl.call("GET", control, "/v1/requests/1").json)
            let answer = try await Self.replay(control, "1")
            #expect(answer.status == 201, "\(answer.text)")
            let record = try #require(answer.json?["record"])
            #expect(record["sequence"] == 2)
            #expect(record["replayOf"] == 1)
            #expect(record["connection"] == .null)
            #expect(record["stream"] == .null)
            #expect(record["remoteAddress"] == "")
            for member in ["method", "path", "authority", "headers", "payload", "accepted", "rule", "auth"] {
                #expect(record[member] == original[member], "\(member)")
            }
            #expect(record["response"]?["status"] == 200)
            #expect(record["answeredAt"] != .null)
            #expect(original["replayOf"] == nil, "only a replay has the member")
            // In the journal, as every push: GET answers the same record, and a replay of the replay names it.
            #expect(try await ControlCurl.call("GET", control, "/v1/requests/2").json == record)
            // The list's summary of it says the same (the inspector's row).
            let list = try await ControlCurl.call("GET", control, "/v1/requests?view=summary").json?["records"]
            guard case .array(let rows) = list, rows.count == 2 else {
                Issue.record("no two summaries: \(String(describing: list))")
                return
            }
            #expect(rows[1]["replayOf"] == 1 && rows[1]["connection"] == .null, "\(rows[1])")
            #expect(rows[0]["replayOf"] == .null && rows[0]["connection"] == 1, "\(rows[0])")
            let again = try await Self.replay(control, "2")
            #expect(again.json?["record"]?["replayOf"] == 2)
            #expect(server.journal.count == 3)
        }
    }

    @Test("a rule added after the push decides its replay, as it would decide the push on the APNs port")
    func scriptedRuleDecidesTheReplay() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            let rules = """
                - name: cut
                  match: {topic: com.example.cut}
                  fault: reset-stream
                - name: down
                  match: {token: \(Self.device)}
                  respond: {status: 503, reason: ServiceUnavailable, delay: 300ms}
                """
            #expect(try await ControlCurl.call("POST", control, "/v1/rules", body: rules).status == 201)
            let started = ContinuousClock.now
            let answer = try await Self.replay(control, "1")
            #expect(ContinuousClock.now - started >= .milliseconds(300), "the rule's delay holds the answer")
            let record = try #require(answer.json?["record"])
            #expect(record["rule"] == "scripted:down")
            #expect(record["response"]?["status"] == 503)
            #expect(record["reason"] == "ServiceUnavailable")
            // A fault has no stream to act on: it is recorded, with no answer.
            let cut = try await Self.replay(
                control, "1",
                body: #"{"headers": [["apns-topic", "com.example.cut"], ["apns-push-type", "alert"]]}"#)
            #expect(cut.status == 201)
            #expect(cut.json?["record"]?["fault"] == "reset-stream")
            #expect(cut.json?["record"]?["response"] == .null)
            #expect(cut.json?["record"]?["answeredAt"] == .null)
            #expect(server.engine.rules.rules.map(\.name) == ["cut", "down"])
        }
    }

    @Test("an expired provider token is replayed as sent: 403 ExpiredProviderToken, as APNs would answer")
    func expiredTokenStaysExpired() async throws {
        try await withControlServer { server, control in
            let old = testProviderToken(at: Date() - 7200)
            let status = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: EndToEndTests.pushHeaders(token: old),
                body: EndToEndTests.alert
            ).status
            #expect(status == 403)
            let record = try #require(try await Self.replay(control, "1").json?["record"])
            #expect(record["reason"] == "ExpiredProviderToken")
            #expect(record["response"]?["status"] == 403)
            let sent = JSONValue.array([.string("authorization"), .string("bearer \(old)")])
            #expect(record["headers"]?.arrayValue?.contains(sent) == true)
        }
    }

    @Test("edit and replay sends the edited header list and payload through the checks")
    func editAndReplay() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            let headers = try #require(server.journal.records().first?.headers)
            let withoutTopic = headers.filter { $0.name != "apns-topic" }
                .map { JSONValue.array([.string($0.name), .string($0.value)]) }
            let missing = try await Self.replay(
                control, "1", body: JSONValue.object([("headers", .array(withoutTopic))]).jsonText)
            #expect(missing.json?["record"]?["reason"] == "MissingTopic")
            #expect(missing.json?["record"]?["payload"] == .string(EndToEndTests.alert), "the payload as recorded")

            let large = #"{"aps":{"alert":"\#(String(repeating: "x", count: 5000))"}}"#
            let tooLarge = try await Self.replay(
                control, "1", body: JSONValue.object([("payload", .string(large))]).jsonText)
            #expect(tooLarge.status == 201)
            #expect(tooLarge.json?["record"]?["reason"] == "PayloadTooLarge")
            // The headers as recorded, but for the length of the new payload, which a client would state.
            let recorded = JSONValue.array(
                headers.map { header in
                    let value = header.name == "content-length" ? String(large.utf8.count) : header.value
                    return .array([.string(header.name), .string(value)])
                })
            #expect(headers.contains { $0.name == "content-length" })
            #expect(tooLarge.json?["record"]?["headers"] == recorded)

            let edited = try await Self.replay(
                control, "1",
                body: #"{"payload": "{\"aps\":{\"alert\":\"edited $HOME `x` 'q' é\"}}", "headers": null}"#)
            #expect(edited.json?["record"]?["accepted"] == true)
            #expect(edited.json?["record"]?["payloadJSON"]?.value(atPath: "aps.alert") == "edited $HOME `x` 'q' é")
            #expect(try await Self.replay(control, "1", body: " {} ").json?["record"]?["accepted"] == true)
        }
    }

    @Test("a Live Activity start replayed reaches the phone, and the activity's history names the replay")
    func liveActivityReplayReachesThePhone() async throws {
        try await withControlServer(scenario: try LiveActivityEndToEndTests.scenario()) { server, control in
            let now = Int(Date().timeIntervalSince1970)
            let start = try await LiveActivityEndToEndTests.startRide(server, now: now)
            #expect(start.device?.kind == .started)
            let sequence = try #require(server.journal.records().last?.sequence)
            let record = try #require(try await Self.replay(control, String(sequence)).json?["record"])
            #expect(record["device"]?["outcome"] == "started", "\(record)")
            let activity = try #require(record["device"]?["activity"]?.stringValue)
            let replayed = try #require(record["sequence"])
            let snapshot = try await ControlCurl.call("GET", control, "/v1/activities/\(activity)")
            #expect(snapshot.json?["history"]?.arrayValue?.first?["sequence"] == replayed)
        }
    }

    @Test("a push with a client certificate is replayed with the certificate of the connection it came on")
    func certificateIsTheConnections() async throws {
        try await withControlServer { server, control in
            let certs = AuthTestFiles.packageRoot.appendingPathComponent("certs").path
            let status = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)",
                headers: ["apns-topic": "com.example.app", "apns-push-type": "alert"], body: EndToEndTests.alert,
                extraArguments: ["--cert", "\(certs)/client-sandbox.pem", "--key", "\(certs)/client-sandbox.key"]
            ).status
            #expect(status == 200)
            let record = try #require(try await Self.replay(control, "1").json?["record"])
            #expect(record["accepted"] == true, "\(record)")
            #expect(record["auth"]?["kind"] == "certificate")
            // A replay of the replay still finds the certificate, through the record it replays.
            #expect(try await Self.replay(control, "2").json?["record"]?["accepted"] == true)
        }
    }

    /// A replay request that must be refused, the status and a part of the sentence that says why.
    struct Refusal: Sendable, CustomStringConvertible {
        var name: String
        var sequence = "1"
        var body: String?
        var status = 400
        var says: String
        var description: String { name }
    }

    /// A body of `count` headers of 100-byte values: 137 bytes each as HTTP/2 counts them.
    static func paddedHeaders(_ count: Int) -> String {
        let pair = #"["x-pad", "\#(String(repeating: "y", count: 100))"]"#
        return #"{"headers": ["# + Array(repeating: pair, count: count).joined(separator: ", ") + "]}"
    }

    static let refusals: [Refusal] = [
        Refusal(name: "unknown seq", sequence: "99", status: 404, says: "no record #99"),
        Refusal(name: "non-numeric seq", sequence: "abc", says: "'abc' is not a sequence number"),
        Refusal(name: "negative seq", sequence: "-1", says: "'-1' is not a sequence number"),
        Refusal(name: "seq over UInt64", sequence: "18446744073709551616", says: "is not a sequence number"),
        Refusal(name: "bad JSON", body: #"{"payload": "#, says: "the replay body is not JSON"),
        Refusal(name: "not an object", body: "[1]", says: "must be a JSON object"),
        Refusal(
            name: "unknown member", body: #"{"paylod": "x"}"#, says: "unknown member 'paylod' (did you mean 'payload'?)"
        ),
        Refusal(name: "member twice", body: #"{"payload": "a", "payload": "b"}"#, says: "'payload' twice"),
        Refusal(
            name: "headers not an array", body: #"{"headers": {"apns-topic": "x"}}"#, says: "headers must be an array"),
        Refusal(name: "headers not pairs", body: #"{"headers": [["apns-topic"]]}"#, says: "headers[0] must be a"),
        Refusal(
            name: "header value not a string", body: #"{"headers": [["a", "b"], ["apns-priority", 10]]}"#,
            says: "headers[1] must be a"),
        Refusal(name: "upper-case name", body: #"{"headers": [["Apns-Topic", "x"]]}"#, says: "'apns-topic'"),
        Refusal(name: "pseudo-header", body: #"{"headers": [[":path", "/x"]]}"#, says: "pseudo-header ':path'"),
        Refusal(
            name: "connection header", body: #"{"headers": [["connection", "close"]]}"#, says: "connection-specific"),
        Refusal(
            name: "line break in a value", body: #"{"headers": [["apns-topic", "a\r\nb: c"]]}"#,
            says: "carriage return"),
        Refusal(name: "space in a name", body: #"{"headers": [["apns topic", "x"]]}"#, says: "a space"),
        Refusal(name: "empty name", body: #"{"headers": [["", "x"]]}"#, says: "empty name"),
        Refusal(name: "payload not a string", body: #"{"payload": {"aps": {}}}"#, says: "payload must be a string"),
        Refusal(
            name: "oversized payload", body: #"{"payload": "\#(String(repeating: "x", count: 65_537))"}"#,
            says: "payload is 65537 bytes, over 65536"),
        Refusal(name: "oversized headers", body: paddedHeaders(130), says: "headers come to"),
        Refusal(
            name: "content-length not the payload's",
            body: #"{"headers": [["content-length", "3"]], "payload": "{}"}"#,
            says: "content-length is '3' but the payload is 2 bytes"),
    ]

    @Test("refuses bad input with a sentence that names it, and records nothing", arguments: refusals)
    func refusesBadInput(_ refusal: Refusal) async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            let answer = try await Self.replay(control, refusal.sequence, body: refusal.body)
            #expect(answer.status == refusal.status, "\(answer.text)")
            #expect(answer.error?.contains(refusal.says) == true, "\(answer.text)")
            #expect(server.journal.count == 1, "a refused call changes nothing")
        }
    }

    @Test("a record of another kind is refused 422: only pushes can be sent again")
    func otherKindIsRefused() async throws {
        try await withControlServer { server, control in
            let json = try JSONParser.parse(
                #"{"sequence":1,"kind":"channel","receivedAt":"2026-09-21T14:13:20.123Z","channel":"c1","op":"new"}"#)
            server.journal.append(try #require(JournalRecord(json: json)))
            let answer = try await Self.replay(control, "1")
            #expect(answer.status == 422)
            #expect(answer.error?.contains("record #1 is a channel record, not a push") == true, "\(answer.text)")
            let curl = try await ControlCurl.call("GET", control, "/v1/requests/1/curl")
            #expect(curl.status == 422)
            #expect(server.journal.count == 1)
        }
    }

    @Test("a payload the journal cut cannot be sent again as it was (422), but an edit can give the payload")
    func cutPayloadNeedsAnEdit() async throws {
        try await withControlServer { server, control in
            let large = #"{"aps":{"alert":"\#(String(repeating: "x", count: 6000))"}}"#
            #expect(try await sendPush(server, body: large) == 413)
            let refused = try await Self.replay(control, "1")
            #expect(refused.status == 422)
            #expect(refused.error?.contains("the journal kept only the first 5120") == true, "\(refused.text)")
            let edited = try await Self.replay(
                control, "1", body: JSONValue.object([("payload", .string(large))]).jsonText)
            #expect(edited.json?["record"]?["reason"] == "PayloadTooLarge")
            #expect(edited.json?["record"]?["payloadBytes"] == .number(String(large.utf8.count)))
        }
    }

    @Test("a read-only control refuses a replay with 409 read-only and records nothing")
    func readOnlyRefuses() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            server.control.readOnlyReason = "this is a journal file opened with mock-apns inspect"
            let answer = try await Self.replay(control, "1")
            #expect(answer.status == 409)
            #expect(answer.error == "read-only: this is a journal file opened with mock-apns inspect")
            #expect(server.journal.count == 1)
            let curl = try await ControlCurl.call("GET", control, "/v1/requests/1/curl")
            #expect(curl.status == 200, "reading still works")
        }
    }
}
