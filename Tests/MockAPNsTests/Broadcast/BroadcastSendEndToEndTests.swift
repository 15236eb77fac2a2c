import Foundation
import Testing
@testable import MockAPNs

/// `POST /4/broadcasts/apps/<bundle>` on the APNs port (issue 24): the answer and every reason, with curl.
@Suite("Broadcast sends over TLS and HTTP/2 with curl", .serialized)
struct BroadcastSendEndToEndTests {
    static let app = "com.example.app"
    static let path = "/4/broadcasts/apps/\(app)"
    static let update = #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":"1-0"}}}"#

    /// A channel of `policy` created through the channel port: its id.
    static func channel(_ server: MockAPNsServer, policy: Int) async throws -> String {
        let created = try await ChannelManagementEndToEndTests.create(server, policy: policy)
        return try #require(created.headers["apns-channel-id"])
    }

    static func headers(channel: String?, _ extra: [String: String?] = [:]) -> [String: String] {
        var headers = [
            "authorization": "bearer \(testProviderToken())", "apns-push-type": "LiveActivity",
            "apns-priority": "10", "apns-expiration": "0",
        ]
        if let channel { headers["apns-channel-id"] = channel }
        for (name, value) in extra { headers[name] = value }
        return headers
    }

    @Test("accepts a broadcast 200 with apns-request-id and apns-unique-id, records it as kind broadcast")
    func accepted() async throws {
        try await withTestServer { server in
            let id = try await Self.channel(server, policy: 0)
            let response = try await Curl.request(
                port: server.port, path: Self.path, headers: Self.headers(channel: id), body: Self.update)
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            let requestID = try #require(response.headers["apns-request-id"])
            #expect(APNsValidator.isCanonicalUUID(requestID))
            #expect(APNsValidator.isCanonicalUUID(try #require(response.headers["apns-unique-id"])))
            #expect(response.headers["apns-id"] == nil)

            let given = "123e4567-e89b-12d3-a456-426614174000"
            let echoed = try await Curl.request(
                port: server.port, path: Self.path, headers: Self.headers(channel: id, ["apns-request-id": given]),
                body: Self.update)
            #expect(echoed.headers["apns-request-id"] == given)

            let record = try #require(server.journal.records().first { $0.kind == .broadcast })
            #expect(record.rawJSON?["channel"] == .string(id))
            #expect(record.rawJSON?["status"] == .number("200"))
            #expect(record.rawJSON?["requestID"] == .string(requestID))
            #expect(record.rawJSON?["app"] == .string(Self.app))
            #expect(record.rawJSON?["payload"] == .string(Self.update))
            #expect(server.engine.channels.all().first?.messagesSent == 2)
        }
    }

    @Test("a channel's hourly budget (a setting per policy): one more is 429 TooManyRequests, uncounted; next hour 200")
    func hourlyBudget() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.fidelity.broadcastsPerHourPolicy0 = 2
        try await withTestServer(scenario: scenario) { server in
            let plain = try await Self.channel(server, policy: 0)
            let stored = try await Self.channel(server, policy: 1)
            func send(_ id: String) async throws -> Curl.Response {
                try await Curl.request(
                    port: server.port, path: Self.path, headers: Self.headers(channel: id), body: Self.update)
            }
            await #expect(try send(plain).status == 200)
            await #expect(try send(plain).status == 200)
            let over = try await send(plain)
            #expect(over.status == 429)
            #expect(ChannelManagementEndToEndTests.reason(over) == "TooManyRequests")
            await #expect(try send(plain).status == 429)
            // Policy 1 has its own budget (unlimited here), and refused broadcasts are not counted or sent.
            for _ in 0..<3 { await #expect(try send(stored).status == 200) }
            #expect(server.engine.channels.all().first { $0.channel.id == plain }?.messagesSent == 2)
            let record = try #require(
                server.journal.records().last { $0.kind == .broadcast && $0.rawJSON?["status"] == 429 })
            #expect(record.rawJSON?["rule"] == "channel.budget")
            // The hour moves with the mock's clock.
            try await server.control.advanceClock(by: .seconds(3601))
            await #expect(try send(plain).status == 200)
        }
    }

    @Test("the hourly broadcast budgets read a number or unlimited, and refuse anything else at its field")
    func hourlyBudgetLoader() throws {
        func load(_ value: String) throws -> FidelitySettings {
            try ScenarioLoader.parse(
                yaml: "fidelity:\n  broadcastsPerHourPolicy1: \(value)\n", sourcePath: "t.yaml", baseDirectory: "/"
            ).world.fidelity
        }
        #expect(try load("5").broadcastsPerHourPolicy1 == 5)
        #expect(try load("unlimited").broadcastsPerHourPolicy1 == nil)
        for bad in ["0", "-1", "1000001", "lots", "\"5\""] {
            #expect(throws: ScenarioError.self, "\(bad)") { try load(bad) }
        }
        var fidelity = FidelitySettings()
        fidelity.broadcastsPerHourPolicy0 = 7
        #expect(fidelity.scenarioJSON["broadcastsPerHourPolicy0"] == 7)
        #expect(fidelity.scenarioJSON["broadcastsPerHourPolicy1"] == "unlimited")
    }

    @Test("a policy-1 channel takes a non-zero apns-expiration; a policy-0 one answers it 400 BadExpirationDate")
    func expirationByPolicy() async throws {
        try await withTestServer { server in
            let stored = try await Self.channel(server, policy: 1)
            let plain = try await Self.channel(server, policy: 0)
            let later = String(Int(Date().timeIntervalSince1970) + 3600)
            let ok = try await Curl.request(
                port: server.port, path: Self.path,
                headers: Self.headers(channel: stored, ["apns-expiration": later]), body: Self.update)
            #expect(ok.status == 200)
            let refused = try await Curl.request(
                port: server.port, path: Self.path,
                headers: Self.headers(channel: plain, ["apns-expiration": later]), body: Self.update)
            #expect(refused.status == 400)
            #expect(ChannelManagementEndToEndTests.reason(refused) == "BadExpirationDate")
        }
    }

    @Test(
        "answers each bad broadcast with Apple's status and reason, never a crash",
        arguments: [
            // (path, headers to change (nil removes), body, status, reason); "$ID" is a policy-0 channel.
            ("/4/broadcasts/apps/", [:], update, 404, "BadPath"),
            ("/4/broadcasts/apps/com.example.app/x", [:], update, 404, "BadPath"),
            (path, ["apns-channel-id": nil], update, 400, "MissingChannelId"),
            (path, ["apns-channel-id": "%%% not base64"], update, 400, "BadChannelId"),
            // Padding alone, or inside: Foundation's base64 decoder on Linux took these.
            (path, ["apns-channel-id": "===="], update, 400, "BadChannelId"),
            (path, ["apns-channel-id": "AA=A"], update, 400, "BadChannelId"),
            (path, ["apns-channel-id": "A==="], update, 400, "BadChannelId"),
            (path, ["apns-channel-id": "AAAA"], update, 400, "ChannelNotRegistered"),
            (path, ["apns-channel-id": "AA=="], update, 400, "ChannelNotRegistered"),
            (path, ["apns-push-type": nil], update, 400, "MissingPushType"),
            (path, ["apns-push-type": "alert"], update, 400, "InvalidPushType"),
            (path, ["apns-priority": nil], update, 400, "BadPriority"),
            (path, ["apns-priority": "1"], update, 400, "BadPriority"),
            (path, ["apns-expiration": nil], update, 400, "BadExpirationDate"),
            (path, ["apns-expiration": "soon"], update, 400, "BadExpirationDate"),
            (path, ["apns-topic": "com.example.app.push-type.liveactivity"], update, 400, "TopicDisallowed"),
            (path, ["apns-request-id": "nope"], update, 400, "BadMessageId"),
            (path, ["authorization": nil], update, 403, "MissingProviderToken"),
            (path, [:], "", 400, "PayloadEmpty"),
            (path, [:], "not json", 400, "BadRequestPayload"),
            (path, [:], #"{"aps":""# + String(repeating: "x", count: 5200) + #""}"#, 413, "PayloadTooLarge"),
        ] as [(String, [String: String?], String, Int, String)])
    func badBroadcasts(path: String, changes: [String: String?], body: String, status: Int, reason: String)
        async throws
    {
        try await withTestServer { server in
            let id = try await Self.channel(server, policy: 0)
            var headers = Self.headers(channel: id)
            for (name, value) in changes { headers[name] = value }
            let response = try await Curl.request(port: server.port, path: path, headers: headers, body: body)
            #expect(response.status == status)
            #expect(ChannelManagementEndToEndTests.reason(response) == reason)
            #expect(response.headers["apns-request-id"] != nil)
            let record = try #require(server.journal.records().last)
            #expect(record.kind == .broadcast)
            #expect(record.rawJSON?["reason"] == .string(reason))
        }
    }

    @Test("answers a channel of the other environment or another app 400 ChannelNotRegistered")
    func otherEnvironmentOrApp() async throws {
        try await withTestServer { server in
            let production = BroadcastChannel(
                id: "cHJvZHVjdGlvbg==", bundleID: Self.app, environment: .production, storagePolicy: .noStorage,
                createdAt: Date(), declared: true)
            server.engine.channels.reset(declared: [production])
            let response = try await Curl.request(
                port: server.port, path: Self.path, headers: Self.headers(channel: production.id), body: Self.update)
            #expect(response.status == 400)
            #expect(ChannelManagementEndToEndTests.reason(response) == "ChannelNotRegistered")
            let mine = try await Self.channel(server, policy: 0)
            let otherApp = try await Curl.request(
                port: server.port, path: "/4/broadcasts/apps/com.example.other", headers: Self.headers(channel: mine),
                body: Self.update)
            #expect(otherApp.status == 400)
            #expect(ChannelManagementEndToEndTests.reason(otherApp) == "ChannelNotRegistered")
        }
    }

    @Test("creates and broadcasts from parallel clients at once: every answer right, every record kept")
    func concurrent() async throws {
        try await withTestServer { server in
            let id = try await Self.channel(server, policy: 1)
            let clients = 6
            let answers = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        let created = try await ChannelManagementEndToEndTests.create(server).status
                        let sent = try await Curl.request(
                            port: server.port, path: Self.path, headers: Self.headers(channel: id), body: Self.update
                        ).status
                        return [created, sent]
                    }
                }
                var all: [[Int]] = []
                for try await answer in group { all.append(answer) }
                return all
            }
            #expect(answers.count == clients && answers.allSatisfy { $0 == [201, 200] })
            let channels = server.engine.channels.all()
            #expect(channels.count == clients + 1)
            #expect(Set(channels.map(\.channel.id)).count == clients + 1)
            #expect(channels.first { $0.channel.id == id }?.messagesSent == clients)
            // Each accepted broadcast also gets its fan-out record, after its answer.
            let fanOuts = await server.journal.waitForRecords(
                matching: JournalQuery(search: try RecordSearch("kind:fan-out")), count: clients, timeout: .seconds(5))
            #expect(fanOuts.satisfied && fanOuts.records.count == clients)
            let records = server.journal.records()
            #expect(records.count == 1 + 3 * clients)
            #expect(records.filter { $0.kind == .broadcast }.count == clients)
        }
    }

    @Test("device pushes still get apns-id answers beside broadcasts on one connection's port")
    func devicePushUnchanged() async throws {
        try await withTestServer { server in
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(EndToEndTests.device)", headers: EndToEndTests.pushHeaders(),
                body: EndToEndTests.alert)
            #expect(response.status == 200)
            #expect(response.headers["apns-id"] != nil)
            #expect(response.headers["apns-request-id"] == nil)
            let onChannels = try await Curl.request(
                port: server.port, path: "/1/apps/\(Self.app)/channels", headers: EndToEndTests.pushHeaders(),
                body: #"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#)
            #expect(onChannels.status == 404)
        }
    }
}

/// The channel port and a broadcast driven by Python's httpx over HTTP/2 (`Tests/clients/channels_httpx.py`), with a
/// PyJWT provider token and with the sandbox client certificate.
@Suite(
    "Broadcast channels with httpx (HTTP/2) from Python", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct BroadcastPythonClientTests {
    @Test("creates, reads, lists, broadcasts and deletes with httpx; certificate auth on the channel port")
    func httpx() async throws {
        try await withTestServer { server in
            let result = try await ThirdPartyClients.run(
                script: "channels_httpx.py",
                arguments: ["--port", String(server.port), "--channels-port", String(server.channelsPort)])
            #expect(
                Set(result.cases.map(\.name)) == [
                    "create", "read", "list", "broadcast", "bad-channel-id", "body-not-json", "delete",
                    "certificate-create",
                ], "\(result.transcript)")
            for clientCase in result.cases { #expect(clientCase.ok, "\(clientCase.line)") }
            #expect(result.status == 0, "\(result.transcript)")
            let certificate = try #require(server.journal.records().last)
            #expect(certificate.kind == .channel)
            #expect(certificate.rawJSON?["auth"]?["kind"] == "certificate")
        }
    }
}
