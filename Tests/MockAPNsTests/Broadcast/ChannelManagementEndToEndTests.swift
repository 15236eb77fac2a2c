import Foundation
import Testing
@testable import MockAPNs

/// The channel management port (issue 24): every operation and every reason, over real TLS and HTTP/2 with curl.
@Suite("Broadcast channel management over TLS and HTTP/2 with curl", .serialized)
struct ChannelManagementEndToEndTests {
    static let app = "com.example.app"
    static let channels = "/1/apps/\(app)/channels"

    static func headers(token: String = testProviderToken(), _ extra: [String: String] = [:]) -> [String: String] {
        var headers = ["authorization": "bearer \(token)"]
        for (name, value) in extra { headers[name] = value }
        return headers
    }

    static func create(_ server: MockAPNsServer, policy: Int = 1) async throws -> Curl.Response {
        try await Curl.request(
            port: server.channelsPort, path: channels, headers: headers(),
            body: #"{"message-storage-policy": \#(policy), "push-type": "LiveActivity"}"#)
    }

    static func reason(_ response: Curl.Response) -> String? {
        (try? JSONParser.parse(response.body))?["reason"]?.stringValue
    }

    @Test("creates, reads, lists and deletes a channel as Apple documents it, and records each as kind channel")
    func lifecycle() async throws {
        try await withTestServer { server in
            #expect(server.channelsPort != server.port && server.channelsPort > 0)
            let created = try await Self.create(server)
            #expect(created.httpVersion == "2")
            #expect(created.status == 201)
            #expect(created.body.isEmpty)
            let id = try #require(created.headers["apns-channel-id"])
            #expect(BroadcastChannel.isWellFormedID(id))
            #expect(APNsValidator.isCanonicalUUID(try #require(created.headers["apns-request-id"])))
            #expect(created.headers["apns-id"] == nil)

            let read = try await Curl.request(
                port: server.channelsPort, path: Self.channels, method: "GET",
                headers: Self.headers(["apns-channel-id": id]))
            #expect(read.status == 200)
            let body = try JSONParser.parse(read.body)
            #expect(body["message-storage-policy"] == .number("1"))
            #expect(body["push-type"] == "LiveActivity")

            let other = try await Self.create(server, policy: 0)
            let otherID = try #require(other.headers["apns-channel-id"])
            #expect(otherID != id)
            let list = try await Curl.request(
                port: server.channelsPort, path: "/1/apps/\(Self.app)/all-channels", method: "GET",
                headers: Self.headers())
            #expect(list.status == 200)
            #expect(try JSONParser.parse(list.body)["channels"] == .array([.string(id), .string(otherID)]))

            let deleted = try await Curl.request(
                port: server.channelsPort, path: Self.channels, method: "DELETE",
                headers: Self.headers(["apns-channel-id": id]))
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            let again = try await Curl.request(
                port: server.channelsPort, path: Self.channels, method: "GET",
                headers: Self.headers(["apns-channel-id": id]))
            #expect(again.status == 400)
            #expect(Self.reason(again) == "ChannelNotRegistered")

            let records = server.journal.records()
            #expect(records.count == 6)
            #expect(records.allSatisfy { $0.kind == .channel })
            #expect(records.map { $0.rawJSON?["operation"]?.stringValue } == [
                "create", "read", "create", "list", "delete", "read",
            ])
            #expect(records[0].rawJSON?["channel"] == .string(id))
            #expect(records[0].rawJSON?["status"] == .number("201"))
            #expect(records[0].rawJSON?["form"] == "documented")
            #expect(records[0].rawJSON?["requestID"] == .string(created.headers["apns-request-id"] ?? ""))
            #expect(records[5].rawJSON?["reason"] == "ChannelNotRegistered")
        }
    }

    @Test("never reuses a deleted channel's id: a channel created after it gets another")
    func idsNeverReused() async throws {
        try await withTestServer { server in
            var seen: Set<String> = []
            for _ in 0..<5 {
                let id = try await #require(try Self.create(server).headers["apns-channel-id"])
                #expect(seen.insert(id).inserted)
                let deleted = try await Curl.request(
                    port: server.channelsPort, path: Self.channels, method: "DELETE",
                    headers: Self.headers(["apns-channel-id": id]))
                #expect(deleted.status == 204)
            }
        }
    }

    @Test("echoes apns-request-id and answers a malformed one 400 BadMessageId")
    func requestID() async throws {
        try await withTestServer { server in
            let given = "123e4567-e89b-12d3-a456-426614174000"
            let echoed = try await Curl.request(
                port: server.channelsPort, path: "/1/apps/\(Self.app)/all-channels", method: "GET",
                headers: Self.headers(["apns-request-id": given]))
            #expect(echoed.status == 200)
            #expect(echoed.headers["apns-request-id"] == given)
            let bad = try await Curl.request(
                port: server.channelsPort, path: "/1/apps/\(Self.app)/all-channels", method: "GET",
                headers: Self.headers(["apns-request-id": "not-a-uuid"]))
            #expect(bad.status == 400)
            #expect(Self.reason(bad) == "BadMessageId")
            #expect(APNsValidator.isCanonicalUUID(try #require(bad.headers["apns-request-id"])))
        }
    }

    @Test(
        "answers each bad request with Apple's status and reason, never a crash",
        arguments: [
            // (method, path, extra headers, body, status, reason)
            ("POST", "/1/apps/com.example.app/nothing", [:], "{}", 404, "BadPath"),
            ("POST", "/3/device/00", [:], "{}", 404, "BadPath"),
            ("PUT", "/1/apps/com.example.app/channels", [:], "{}", 405, "MethodNotAllowed"),
            ("POST", "/1/apps/com.example.app/all-channels", [:], "{}", 405, "MethodNotAllowed"),
            ("POST", "/1/apps/com.example.app/channels", [:], "", 400, "PayloadEmpty"),
            ("POST", "/1/apps/com.example.app/channels", [:], "not json", 400, "BadRequestPayload"),
            ("POST", "/1/apps/com.example.app/channels", [:], "[1]", 400, "BadRequestPayload"),
            (
                "POST", "/1/apps/com.example.app/channels", [:], #"{"message-storage-policy": 0}"#, 400,
                "MissingPushType"
            ),
            (
                "POST", "/1/apps/com.example.app/channels", [:],
                #"{"message-storage-policy": 0, "push-type": "alert"}"#, 400, "InvalidPushType"
            ),
            (
                "POST", "/1/apps/com.example.app/channels", [:], #"{"push-type": "LiveActivity"}"#, 400,
                "BadRequestParams"
            ),
            (
                "POST", "/1/apps/com.example.app/channels", [:],
                #"{"message-storage-policy": 2, "push-type": "LiveActivity"}"#, 400, "BadRequestParams"
            ),
            (
                "POST", "/1/apps/com.example.app/channels", [:],
                #"{"message-storage-policy": 99999999999999999999999, "push-type": "LiveActivity"}"#, 400,
                "BadRequestParams"
            ),
            ("DELETE", "/1/apps/com.example.app/channels", [:], nil, 400, "MissingChannelId"),
            ("GET", "/1/apps/com.example.app/channels", ["apns-channel-id": "not base64!"], nil, 400, "BadChannelId"),
            ("GET", "/1/apps/com.example.app/channels", ["apns-channel-id": "AAAA"], nil, 400, "ChannelNotRegistered"),
        ] as [(String, String, [String: String], String?, Int, String)])
    func badRequests(
        method: String, path: String, extra: [String: String], body: String?, status: Int, reason: String
    ) async throws {
        try await withTestServer { server in
            let response = try await Curl.request(
                port: server.channelsPort, path: path, method: method, headers: Self.headers(extra), body: body)
            #expect(response.status == status)
            #expect(Self.reason(response) == reason)
            #expect(response.headers["apns-request-id"] != nil)
            let record = try #require(server.journal.records().last)
            #expect(record.kind == .channel)
            #expect(record.rawJSON?["reason"] == .string(reason))
        }
    }

    @Test("authenticates like the device port: no token 403 MissingProviderToken, a bad one InvalidProviderToken")
    func providerTokens() async throws {
        try await withTestServer { server in
            let missing = try await Curl.request(
                port: server.channelsPort, path: "/1/apps/\(Self.app)/all-channels", method: "GET")
            #expect(missing.status == 403)
            #expect(Self.reason(missing) == "MissingProviderToken")
            let invalid = try await Curl.request(
                port: server.channelsPort, path: "/1/apps/\(Self.app)/all-channels", method: "GET",
                headers: ["authorization": "bearer not.a.jwt"])
            #expect(invalid.status == 403)
            #expect(Self.reason(invalid) == "InvalidProviderToken")
            let old = try await Curl.request(
                port: server.channelsPort, path: "/1/apps/\(Self.app)/all-channels", method: "GET",
                headers: Self.headers(token: testProviderToken(at: Date().addingTimeInterval(-7200))))
            #expect(old.status == 403)
            #expect(Self.reason(old) == "ExpiredProviderToken")
        }
    }

    @Test("refuses a channel over maxChannelsPerApp with 400 CannotCreateChannelConfig, per app")
    func channelLimit() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.fidelity.maxChannelsPerApp = 2
        try await withTestServer(scenario: scenario) { server in
            await #expect(try Self.create(server).status == 201)
            await #expect(try Self.create(server).status == 201)
            let third = try await Self.create(server)
            #expect(third.status == 400)
            #expect(Self.reason(third) == "CannotCreateChannelConfig")
            let otherApp = try await Curl.request(
                port: server.channelsPort, path: "/1/apps/com.example.other/channels", headers: Self.headers(),
                body: #"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#)
            #expect(otherApp.status == 201)
        }
    }

    @Test("takes APNSwift's undocumented forms (id in the path, GET /channels lists) and notes them on the record")
    func undocumentedForms() async throws {
        try await withTestServer { server in
            let id = try await #require(try Self.create(server).headers["apns-channel-id"])
            let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
            let read = try await Curl.request(
                port: server.channelsPort, path: "\(Self.channels)/\(escaped)", method: "GET", headers: Self.headers())
            #expect(read.status == 200)
            let list = try await Curl.request(
                port: server.channelsPort, path: Self.channels, method: "GET", headers: Self.headers())
            #expect(list.status == 200)
            #expect(try JSONParser.parse(list.body)["channels"] == .array([.string(id)]))
            let deleted = try await Curl.request(
                port: server.channelsPort, path: "\(Self.channels)/\(escaped)", method: "DELETE",
                headers: Self.headers())
            #expect(deleted.status == 204)
            let records = server.journal.records()
            #expect(records.map { $0.rawJSON?["form"]?.stringValue } == [
                "documented", "id-in-path", "list-at-channels", "id-in-path",
            ])
            #expect(records[1].otherKindText.contains("APNSwift"))
        }
    }

    @Test("with undocumentedChannelForms reject, answers APNSwift's forms as Apple documents them")
    func undocumentedFormsRejected() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.fidelity.acceptUndocumentedChannelForms = false
        try await withTestServer(scenario: scenario) { server in
            let id = try await #require(try Self.create(server).headers["apns-channel-id"])
            let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
            let read = try await Curl.request(
                port: server.channelsPort, path: "\(Self.channels)/\(escaped)", method: "GET", headers: Self.headers())
            #expect(read.status == 404)
            #expect(Self.reason(read) == "BadPath")
            let list = try await Curl.request(
                port: server.channelsPort, path: Self.channels, method: "GET", headers: Self.headers())
            #expect(list.status == 400)
            #expect(Self.reason(list) == "MissingChannelId")
        }
    }

    @Test("answers an app the scenario does not know 400 FeatureNotEnabled in strict mode")
    func unknownAppStrict() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.devicePolicy = .strict
        scenario.world.apps = ["com.example.app": AppRecord(bundleID: "com.example.app")]
        try await withTestServer(scenario: scenario) { server in
            let response = try await Curl.request(
                port: server.channelsPort, path: "/1/apps/com.example.unknown/all-channels", method: "GET",
                headers: Self.headers())
            #expect(response.status == 400)
            #expect(Self.reason(response) == "FeatureNotEnabled")
            await #expect(try Self.create(server).status == 201)
        }
    }
}
