import Foundation
import Testing

@testable import MockAPNs

/// Runs `body` against a cleartext test server that takes a burst of streams in a client's first write (no
/// one-stream limit until authenticated); `body` gets the server and its cleartext port.
func withBurstServer<T>(_ body: (MockAPNsServer, Int) async throws -> T) async throws -> T {
    var scenario = Scenario.embeddedDefault(port: 0)
    scenario.world.fidelity.singleStreamUntilAuthenticated = false
    return try await withTestServer(scenario: scenario, cleartext: true) { server in
        try await body(server, try #require(server.cleartextPort))
    }
}

extension HTTP2ClientFrames {
    /// The path of a push to `EndToEndTests.device`.
    static let pushPath = "/3/device/\(EndToEndTests.device)"
    /// The headers of an accepted alert push, with a provider token.
    static let pushHeaders = [
        ("apns-topic", "com.example.app"), ("apns-push-type", "alert"),
        ("authorization", "bearer \(testProviderToken())"),
    ]
}
