import Foundation
import Testing
@testable import MockAPNs

/// Scripted answers, delays and faults from a scenario file, over real TLS and HTTP/2.
@Suite("Scripted rules end to end", .serialized)
struct ScriptedRulesEndToEndTests {
    static func token(_ n: Int) -> String {
        let suffix = String(n)
        return String(repeating: "0", count: 64 - suffix.count) + suffix
    }

    /// The reasons APNs has no rule for here: they come from scripted rules, one token each.
    static let scriptedReasons: [(String, Int)] = [
        ("IdleTimeout", 400), ("BadCertificate", 403), ("Forbidden", 403), ("TooManyRequests", 429),
        ("InternalServerError", 500), ("ServiceUnavailable", 503), ("Shutdown", 503),
    ]

    static func scenario(_ rulesYAML: String) throws -> Scenario {
        let yaml = """
            keys:
              - teamID: TESTTEAM01
                keyID: TESTKEY001
                publicKey: ../certs/AuthKey_TESTKEY001.pub.pem
            rules:
            \(rulesYAML)
            """
        return try ScenarioLoader.parse(
            yaml: yaml, sourcePath: "test.yaml",
            baseDirectory: AuthTestFiles.packageRoot.appendingPathComponent("scenarios").path)
    }

    static func push(_ server: MockAPNsServer, token: String, extra: [String] = []) async throws -> Curl.Response {
        try await Curl.request(
            port: server.port, path: "/3/device/\(token)", headers: EndToEndTests.pushHeaders(), body: EndToEndTests.alert,
            extraArguments: extra)
    }

    @Test("produces every reason that only a script can, with its status")
    func scriptedReasonsAnswer() async throws {
        var rules = ""
        for (index, (reason, _)) in Self.scriptedReasons.enumerated() {
            rules += """
                  - match: { token: "\(Self.token(index + 1))" }
                    respond: { reason: \(reason) }

                """
        }
        try await withTestServer(scenario: try Self.scenario(rules)) { server in
            for (index, (reason, status)) in Self.scriptedReasons.enumerated() {
                let response = try await Self.push(server, token: Self.token(index + 1))
                #expect(response.status == status, "\(reason)")
                #expect(response.body == "{\"reason\":\"\(reason)\"}")
                #expect(response.headers["apns-id"] != nil)
            }
            let records = server.journal.records()
            #expect(records.map(\.reason) == Self.scriptedReasons.map(\.0))
            #expect(records.allSatisfy { $0.rule.hasPrefix("scripted:rule ") })
        }
    }

    @Test("answers the nth matching push: first OK, second 410 with the scripted timestamp, third 429")
    func nthRules() async throws {
        let token = Self.token(77)
        let rules = """
              - name: second is gone
                match: { token: "\(token)" }
                nth: 2
                respond: { reason: Unregistered, timestamp: 1790000000 }
              - name: third is throttled
                match: { token: "\(token)" }
                nth: 3
                respond: { reason: TooManyRequests }
            """
        try await withTestServer(scenario: try Self.scenario(rules)) { server in
            await #expect(try Self.push(server, token: token).status == 200)
            let second = try await Self.push(server, token: token)
            #expect(second.status == 410)
            #expect(second.body == #"{"reason":"Unregistered","timestamp":1790000000000}"#)
            await #expect(try Self.push(server, token: token).status == 429)
            await #expect(try Self.push(server, token: token).status == 200)
            #expect(server.journal.records().map(\.rule) == ["accepted", "scripted:second is gone", "scripted:third is throttled", "accepted"])
        }
    }

    @Test("matches on topic, push type, header and payload values")
    func matchFields() async throws {
        let rules = """
              - name: ended activity
                match:
                  pushType: liveactivity
                  headers: { apns-priority: "5" }
                  payload: { aps.event: end }
                respond: { reason: BadPriority }
            """
        try await withTestServer(scenario: try Self.scenario(rules)) { server in
            var headers = EndToEndTests.pushHeaders([
                "apns-push-type": "liveactivity", "apns-topic": "com.example.app.push-type.liveactivity",
                "apns-priority": "5",
            ])
            let end = #"{"aps":{"event":"end","timestamp":1800000000,"content-state":{"eta":0}}}"#
            let update = #"{"aps":{"event":"update","timestamp":1800000000,"content-state":{"eta":3}}}"#
            let path = "/3/device/\(Self.token(5))"
            let endAtFive = try await Curl.request(port: server.port, path: path, headers: headers, body: end)
            let updateAtFive = try await Curl.request(port: server.port, path: path, headers: headers, body: update)
            headers["apns-priority"] = "10"
            let endAtTen = try await Curl.request(port: server.port, path: path, headers: headers, body: end)
            #expect([endAtFive.status, updateAtFive.status, endAtTen.status] == [400, 200, 200] as [Int])
        }
    }

    @Test("delays a scripted answer and records when it was sent")
    func delay() async throws {
        let rules = """
              - match: { token: "\(Self.token(9))" }
                respond: { reason: InternalServerError, delay: 400ms }
            """
        try await withTestServer(scenario: try Self.scenario(rules)) { server in
            let start = ContinuousClock.now
            let slow = try await Self.push(server, token: Self.token(9))
            let elapsed = ContinuousClock.now - start
            #expect(slow.status == 500)
            #expect(elapsed >= .milliseconds(400))
            let record = try #require(server.journal.records().first)
            let answeredAt = try #require(record.answeredAt)
            #expect(answeredAt.timeIntervalSince(record.receivedAt) >= 0.4)
        }
    }

    @Test("injects faults: no answer, reset stream, GOAWAY with 503 Shutdown, closed connection")
    func faults() async throws {
        let rules = """
              - { match: { token: "\(Self.token(1))" }, fault: no-response }
              - { match: { token: "\(Self.token(2))" }, fault: reset-stream }
              - { match: { token: "\(Self.token(3))" }, fault: goaway }
              - { match: { token: "\(Self.token(4))" }, fault: close-connection }
            """
        try await withTestServer(scenario: try Self.scenario(rules)) { server in
            // No answer: curl gives up (exit 28, timeout) and the record says nothing was sent.
            let noAnswer = try await Curl.run(Self.curlArguments(server, token: Self.token(1)) + ["--max-time", "1"])
            #expect(noAnswer.0 == 28)
            let reset = try await Curl.run(Self.curlArguments(server, token: Self.token(2)))
            #expect(reset.0 != 0)
            #expect(reset.2.contains("INTERNAL_ERROR") || reset.2.contains("stream"), "\(reset.2)")
            let goaway = try await Self.push(server, token: Self.token(3))
            #expect(goaway.status == 503)
            #expect(goaway.body == #"{"reason":"Shutdown"}"#)
            let closed = try await Curl.run(Self.curlArguments(server, token: Self.token(4)))
            #expect(closed.0 != 0)

            let records = server.journal.records()
            #expect(records.map(\.fault) == ["no-response", "reset-stream", "goaway", "close-connection"])
            #expect(records[0].response == nil)
            #expect(records[2].response?.status == 503)
            // The server is still fine.
            await #expect(try Self.push(server, token: Self.token(99)).status == 200)
        }
    }

    @Test("records a delayed answer whose client left as not sent")
    func clientLeavesDuringDelay() async throws {
        let rules = """
              - match: { token: "\(Self.token(8))" }
                respond: { reason: ServiceUnavailable, delay: 1500ms }
            """
        try await withTestServer(scenario: try Self.scenario(rules)) { server in
            let result = try await Curl.run(Self.curlArguments(server, token: Self.token(8)) + ["--max-time", "0.5"])
            #expect(result.0 == 28)
            try await Task.sleep(for: .milliseconds(1700))
            let record = try #require(server.journal.records().first)
            #expect(record.response == nil)
            #expect(record.fault == "stream closed by the client before the answer")
        }
    }

    static func curlArguments(_ server: MockAPNsServer, token: String) -> [String] {
        var arguments = ["-sS", "--http2", "--cacert", Curl.caFile, "--data-binary", EndToEndTests.alert]
        for (name, value) in EndToEndTests.pushHeaders() { arguments += ["-H", "\(name): \(value)"] }
        arguments.append("https://localhost:\(server.port)/3/device/\(token)")
        return arguments
    }
}
