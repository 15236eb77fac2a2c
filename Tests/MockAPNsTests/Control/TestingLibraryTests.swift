import AsyncHTTPClient
import Foundation
import MockAPNsTesting
import NIOCore
import NIOSSL
import Testing

@testable import MockAPNs

/// `MockAPNsTesting` as a Swift provider's test uses it, with AsyncHTTPClient as the real HTTP/2 provider.
@Suite("MockAPNsTesting", .serialized)
struct TestingLibraryTests {
    static let device = EndToEndTests.device

    /// An HTTP/2 client trusting the mock's CA, as a provider would be configured in a test.
    static func provider(trusting caPEM: String?) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array((caPEM ?? "").utf8)))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends one alert with a provider token from the test key, as a provider does.
    static func send(_ client: HTTPClient, to server: MockAPNsTestServer, token: String, title: String) async throws
        -> HTTPClientResponse
    {
        let key = try ES256PrivateKey(pem: TestCredentials.signingKeyPEM)
        let jwt = ProviderTokenSigner.makeToken(
            teamID: TestCredentials.teamID, keyID: TestCredentials.keyID, issuedAt: Int64(Date().timeIntervalSince1970),
            key: key)
        var request = HTTPClientRequest(url: "\(server.apnsURL)/3/device/\(token)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-topic", value: "com.example.app")
        request.headers.add(name: "apns-push-type", value: "alert")
        request.body = .bytes(ByteBuffer(string: #"{"aps":{"alert":{"title":"\#(title)","body":"Hi"}}}"#))
        return try await client.execute(request, timeout: .seconds(5))
    }

    /// The failure `body`'s expectation throws; the issue it records at its caller's line is expected (a known
    /// issue), and the test fails if it records none or throws something else.
    static func failure(_ body: () async throws -> Void) async -> MockAPNsExpectationFailure? {
        var caught: MockAPNsExpectationFailure?
        var other: (any Error)?
        var passed = false
        await withKnownIssue {
            do {
                try await body()
                passed = true
            } catch let failure as MockAPNsExpectationFailure {
                caught = failure
            } catch {
                other = error
            }
        }
        if passed { Issue.record("the expectation passed") }
        if let other { Issue.record(other, "the expectation threw something else") }
        return caught
    }

    @Test("a provider's push over HTTP/2 is asserted in three lines")
    func threeLines() async throws {
        try await withMockAPNs { server in
            let provider = try Self.provider(trusting: server.caPEM)
            let response = try await Self.send(provider, to: server, token: Self.device, title: "Hello")
            try await provider.shutdown()
            #expect(response.status == .ok)
            #expect(response.version == .http2)

            let pushes = try await server.expectPush(to: Self.device, count: 1, timeout: .seconds(2))
            #expect(pushes[0].payloadJSON?.value(atPath: "aps.alert.title") == "Hello")
            #expect(pushes[0].auth?.verified == true)
        }
    }

    @Test("a failed expectation says what was received and the nearest misses")
    func failureMessage() async throws {
        try await withMockAPNs { server in
            let provider = try Self.provider(trusting: server.caPEM)
            _ = try await Self.send(provider, to: server, token: Self.device, title: "Hello")
            try await provider.shutdown()
            let other = String(repeating: "ab", count: 32)
            if let failure = await Self.failure({
                try await server.expectPush(to: other, count: 1, timeout: .milliseconds(200))
            }) {
                #expect(failure.message.hasPrefix("expected 1 push matching token:\(other), within 200ms; got 0.\n"))
                #expect(
                    failure.message.contains(
                        "received:\n  #1 alert com.example.app → 012345…abcdef: 200, phone shown "
                            + "\"Hello\" / \"Hi\""))
                #expect(
                    failure.message.contains(#/\nNearest: #1 at [0-9:.]+ — token was [0-9a-f]{64} \(expected (ab){32}\)\n/#),
                    "\(failure.message)")
            }
            if let failure = await Self.failure({
                try await server.expectPush(to: Self.device, count: 1, timeout: .seconds(1)) { record in
                    record.payloadJSON?.value(atPath: "aps.alert.title") == "Goodbye"
                }
            }) {
                #expect(failure.message.contains("not the where: condition"), "\(failure.message)")
            }
        }
    }

    @Test("fails when more pushes arrived than expected, and expectNoPush fails when one arrived")
    func tooMany() async throws {
        try await withMockAPNs { server in
            let provider = try Self.provider(trusting: server.caPEM)
            _ = try await Self.send(provider, to: server, token: Self.device, title: "One")
            _ = try await Self.send(provider, to: server, token: Self.device, title: "Two")
            try await provider.shutdown()
            #expect(await Self.failure { try await server.expectPush(to: Self.device, count: 1, timeout: .seconds(1)) } != nil)
            let two = try await server.expectPush(to: Self.device, count: 2, timeout: .seconds(1))
            #expect(two.map(\.sequence) == [1, 2])
            #expect(await Self.failure { try await server.expectNoPush(to: Self.device) } != nil)
        }
    }

    @Test("the report says the miss as run does, field by field, then lists the newest received (built directly)")
    func reportMessage() {
        let record = JournalRecord(
            sequence: 7, receivedAt: Date(), answeredAt: Date(), connectionID: 1, remoteAddress: "127.0.0.1:1",
            request: APNsRequest(
                method: "POST", path: "/3/device/\(Self.device)", authority: "localhost",
                body: Array(#"{"aps":{"event":"update","content-state":{"eta":5}}}"#.utf8)),
            verdict: Verdict(
                outcome: .rejected(.unregistered, timestamp: nil), rule: "device-unregistered", explanation: "",
                pushType: "liveactivity", topic: "com.example.app.push-type.liveactivity"),
            response: APNsResponse(status: 410, apnsID: "A"))
        let query = JournalQuery(token: Self.device, pushType: "alert")
        let expectation = ScenarioExpectation(
            name: "expectPush", match: query.match, count: 2...2, within: .seconds(2))
        var report = expectation.check([record], deadline: nil)
        report.details += PushExpectation.receivedLines([record], total: 12)
        #expect(
            report.message == """
                expected 2 pushes matching token:\(Self.device) type:alert, within 2s; got 0.
                Nearest: #7 at \(Timestamp.timeOfDay(record.receivedAt)) — type was liveactivity (expected alert)
                received (the newest 1 of 12):
                  #7 liveactivity com.example.app.push-type.liveactivity → 012345…abcdef: 410 Unregistered event update {"eta":5}
                """)
    }
}
