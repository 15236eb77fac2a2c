import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// Which transport carries a token upload: the core's plain HTTP for an in-process server, AsyncHTTPClient (from
/// `MockAPNsClient`) when injected and in the `mock-apns` command. Real receivers, real start pushes over curl.
@Suite("Token upload transports", .serialized)
struct TokenUploadTransportTests {
    @Test("in process without a TLS transport: each https:// try fails saying so, logged, and verify fails")
    func httpsWithoutTLSTransport() async throws {
        try await UploadReceiver.with { receiver in
            let url = "https://127.0.0.1:\(receiver.port)/la-tokens"
            let capture = LogCapture()
            let scenario = try TokenUploadEndToEndTests.scenario(uploadingTo: url, attempts: 2)
            try await TokenUploadEndToEndTests.withUploadServer(scenario, capture: capture) { server, _ in
                let (id, _) = try await TokenUploadEndToEndTests.start(server)
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                let upload = try #require(TokenUploadEndToEndTests.uploads(server, id).first)
                #expect(upload.status == .failed && upload.attempts == 2 && upload.httpStatus == nil)
                #expect(upload.error == PlainHTTPTokenUploadTransport.needsTLS, "\(upload.error ?? "")")
                #expect(capture.lines(containing: "failed after 2 attempts: https:// upload URLs need").count == 1)
                #expect(receiver.received.isEmpty, "nothing was sent in clear text to an https:// URL")
                let report = try await server.verify()
                #expect(report.failures.map(\.kind) == [.tokenUpload])
            }
        }
    }

    @Test("MockAPNsClient's AsyncHTTPClient transport, injected: the start's token is delivered once, as JSON")
    func asyncHTTPClientTransport() async throws {
        try await UploadReceiver.with { receiver in
            let scenario = try TokenUploadEndToEndTests.scenario(uploadingTo: receiver.url)
            let transport = AsyncHTTPClientTokenUploadTransport()
            try await TokenUploadEndToEndTests.withUploadServer(scenario, transport: transport) { server, _ in
                let (id, token) = try await TokenUploadEndToEndTests.start(server)
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                let upload = try #require(TokenUploadEndToEndTests.uploads(server, id).first)
                #expect(upload.status == .delivered && upload.httpStatus == 200 && upload.attempts == 1)
                let post = try #require(receiver.received.first)
                #expect(receiver.received.count == 1)
                #expect(post.contentType == "application/json" && post.providerKey == "k1")
                #expect(post.json?["token"]?.stringValue == token)
            }
        }
    }

    @Test("mock-apns run uploads through AsyncHTTPClient: an https:// endpoint is tried, not refused for want of TLS")
    func commandUsesTLSTransport() async throws {
        let url = "https://127.0.0.1:\(try UploadReceiver.unusedPort())/la-tokens"
        let (status, text) = try await TokenUploadRunTests.runStartPush(uploadingTo: url, attempts: 1)
        #expect(status == 1, "\(text)")
        #expect(text.contains("to \(url) failed after 1 attempt"), "\(text)")
        #expect(!text.contains("need a TLS transport"), "\(text)")
    }
}
