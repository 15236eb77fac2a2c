import AsyncHTTPClient
import Foundation
import MockAPNsTesting
import NIOCore
import NIOSSL
import Synchronization
import Testing

@testable import MockAPNs

/// `MockAPNsTesting` as a new Swift user meets it: the `.mockAPNs` trait with its provider configuration, failures
/// reported at the line of the call, and a provider that does not trust the CA named in the failure.
@Suite("MockAPNsTesting: trait, caller's line, untrusted CA")
struct TestingLibraryTraitTests {
    static let device = EndToEndTests.device

    @Test("@Test(.mockAPNs) hands the test a started server whose provider configuration a real client can use", .mockAPNs)
    func trait() async throws {
        let mock = try #require(MockAPNsTestServer.current)
        let configuration = mock.provider
        #expect(configuration.apnsURL == "https://localhost:\(mock.port)")
        #expect(configuration.keyID == "TESTKEY001" && configuration.teamID == "TESTTEAM01")
        let client = try TestingLibraryTests.provider(trusting: configuration.caPEM)
        let key = try ES256PrivateKey(pem: configuration.signingKeyPEM)
        let jwt = ProviderTokenSigner.makeToken(
            teamID: configuration.teamID, keyID: configuration.keyID,
            issuedAt: Int64(Date().timeIntervalSince1970), key: key)
        var request = HTTPClientRequest(url: "\(configuration.apnsURL)/3/device/\(Self.device)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-topic", value: "com.example.app")
        request.body = .bytes(ByteBuffer(string: #"{"aps":{"alert":"from the trait"}}"#))
        let response = try await client.execute(request, timeout: .seconds(5))
        try await client.shutdown()
        #expect(response.status == .ok)
        let pushes = try await mock.expectPush(to: Self.device)
        #expect(pushes[0].auth?.verified == true, "the configuration's key signs tokens the server verifies")
    }

    @Test("each test under the trait gets its own server, and none outside it")
    func noServerOutside() {
        #expect(MockAPNsTestServer.current == nil)
    }

    @Test("a failed expectPush is recorded at the line that called it, not at the @Test function")
    func callerLine() async throws {
        let lines = Mutex<[Int]>([])
        var callLine = 0
        try await withMockAPNs { server in
            await withKnownIssue {
                callLine = #line + 1
                _ = try? await server.expectPush(to: Self.device, timeout: .milliseconds(50))
            } matching: { issue in
                if let line = issue.sourceLocation?.line { lines.withLock { $0.append(line) } }
                return true
            }
        }
        #expect(lines.withLock { $0 }.contains(callLine), "issues at \(lines.withLock { $0 }), call at \(callLine)")
    }

    @Test("a provider that does not trust the mock's CA: the failure of expectPush says so, without logs")
    func untrustedCA() async throws {
        try await withMockAPNs { server in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates([])  // trusts nothing: as a provider left on the system roots
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
            var request = HTTPClientRequest(url: "\(server.apnsURL)/3/device/\(Self.device)")
            request.method = .POST
            request.body = .bytes(ByteBuffer(string: #"{"aps":{"alert":"hi"}}"#))
            _ = try? await client.execute(request, timeout: .seconds(2))
            try await client.shutdown()
            let failure = await TestingLibraryTests.failure {
                try await server.expectPush(to: Self.device, timeout: .milliseconds(300))
            }
            let message = failure?.message ?? ""
            #expect(message.contains("a TLS handshake failed"), "\(message)")
            #expect(message.contains("does not trust the server certificate"), "\(message)")
        }
    }
}
