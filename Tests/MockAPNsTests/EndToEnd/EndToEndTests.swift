import Foundation
import Testing
@testable import MockAPNs

/// Real TLS, real HTTP/2, real curl, against a server on a free port.
@Suite("End to end over TLS and HTTP/2 with curl", .serialized)
struct EndToEndTests {
    static let device = String(repeating: "0123456789abcdef", count: 4)

    static func pushHeaders(token: String = testProviderToken(), _ extra: [String: String] = [:]) -> [String: String] {
        var headers = [
            "apns-topic": "com.example.app", "apns-push-type": "alert", "authorization": "bearer \(token)",
        ]
        for (name, value) in extra { headers[name] = value }
        return headers
    }

    static let alert = #"{"aps":{"alert":{"title":"Order ready","body":"Your food is on its way"}}}"#

    @Test("answers a valid push 200 with a generated apns-id and apns-unique-id, and records it")
    func success() async throws {
        try await withTestServer { server in
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: Self.pushHeaders(), body: Self.alert)
            #expect(response.httpVersion == "2")
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            let apnsID = try #require(response.headers["apns-id"])
            #expect(APNsValidator.isCanonicalUUID(apnsID))
            #expect(apnsID == apnsID.uppercased())
            let uniqueID = try #require(response.headers["apns-unique-id"])
            #expect(APNsValidator.isCanonicalUUID(uniqueID))
            #expect(uniqueID == uniqueID.lowercased())
            #expect(response.headers["content-type"] == nil)

            let records = server.journal.records()
            try #require(records.count == 1)
            let record = records[0]
            #expect(record.accepted)
            #expect(record.deviceToken == Self.device)
            #expect(record.topic == "com.example.app")
            #expect(record.response?.apnsID == apnsID)
            #expect(record.response?.apnsUniqueID == uniqueID)
            #expect(record.payloadJSON?.value(atPath: "aps.alert.title") == "Order ready")
            #expect(record.auth?.verified == true)
            #expect(record.rule == "accepted")
        }
    }

    @Test("echoes the request's apns-id byte for byte")
    func echoesApnsID() async throws {
        try await withTestServer { server in
            let id = "123e4567-e89b-12d3-a456-426614174000"
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: Self.pushHeaders(["apns-id": id]),
                body: Self.alert)
            #expect(response.status == 200)
            #expect(response.headers["apns-id"] == id)

            // Not a UUID, and longer than the answer's reused header buffer starts: 400 BadMessageId, echoed whole.
            let long = String(repeating: "not-a-uuid-", count: 30)
            let bad = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: Self.pushHeaders(["apns-id": long]),
                body: Self.alert)
            #expect(bad.status == 400)
            #expect(bad.body == #"{"reason":"BadMessageId"}"#)
            #expect(bad.headers["apns-id"] == long)
            #expect(bad.headers["content-type"] == "application/json")
        }
    }

    @Test("answers errors with JSON {reason}, content-type and apns-id")
    func errorFraming() async throws {
        try await withTestServer { server in
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: Self.pushHeaders(["apns-priority": "7"]),
                body: Self.alert)
            #expect(response.status == 400)
            #expect(response.body == #"{"reason":"BadPriority"}"#)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.headers["apns-id"] != nil)
            let record = try #require(server.journal.records().first)
            #expect(record.reason == "BadPriority")
            #expect(record.response?.body == #"{"reason":"BadPriority"}"#)
        }
    }

    @Test("answers several kinds of error as APNs does", arguments: [
        ("GET", "/3/device/\(device)", [String: String](), 405, "MethodNotAllowed"),
        ("POST", "/4/nothing", [:], 404, "BadPath"),
        ("POST", "/3/device/xyz", [:], 400, "BadDeviceToken"),
        ("POST", "/3/device/\(device)", ["authorization": "bearer not.a.jwt"], 403, "InvalidProviderToken"),
        ("POST", "/3/device/\(device)", ["apns-push-type": "voip"], 400, "DeviceTokenNotForTopic"),
    ])
    func errorKinds(method: String, path: String, extra: [String: String], status: Int, reason: String) async throws {
        try await withTestServer { server in
            let response = try await Curl.request(
                port: server.port, path: path, method: method, headers: Self.pushHeaders(extra),
                body: method == "GET" ? nil : Self.alert)
            #expect(response.status == status)
            #expect(response.body == "{\"reason\":\"\(reason)\"}")
            #expect(server.journal.records().first?.reason == reason)
        }
    }

    @Test("answers 403 MissingProviderToken without authorization")
    func missingProviderToken() async throws {
        try await withTestServer { server in
            var headers = Self.pushHeaders()
            headers["authorization"] = nil
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: headers, body: Self.alert)
            #expect(response.status == 403)
            #expect(response.body == #"{"reason":"MissingProviderToken"}"#)
        }
    }

    @Test("answers an unregistered device 410 with reason and integer millisecond timestamp")
    func unregisteredBody() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        let since = Date(timeIntervalSince1970: 1_790_000_000.123)
        scenario.world.devices[Self.device] = Device(token: Self.device, unregisteredAt: since)
        try await withTestServer(scenario: scenario) { server in
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: Self.pushHeaders(), body: Self.alert)
            #expect(response.status == 410)
            #expect(response.body == #"{"reason":"Unregistered","timestamp":1790000000123}"#)
            let json = try JSONParser.parse(response.body)
            #expect(json["timestamp"] == .number("1790000000123"))
        }
    }

    @Test("serves cleartext HTTP/2 with prior knowledge when asked")
    func cleartext() async throws {
        try await withTestServer(cleartext: true) { server in
            let port = try #require(server.cleartextPort)
            let response = try await Curl.request(
                port: port, path: "/3/device/\(Self.device)", headers: Self.pushHeaders(), body: Self.alert,
                scheme: "http")
            #expect(response.status == 200)
            #expect(server.journal.records().first?.accepted == true)
        }
    }

    @Test("refuses an HTTP/1.1-only client in words")
    func refusesHTTP1() async throws {
        try await withTestServer { server in
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: Self.pushHeaders(), body: Self.alert,
                extraArguments: ["--http1.1"])
            #expect(response.status == 505)
            #expect(response.body.contains("HTTP/2 only"))
            #expect(server.journal.count == 0)
        }
    }
}
