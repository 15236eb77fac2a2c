import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import Testing

@testable import MockAPNs

/// The stream-limit flips after rejected and accepted pushes, seen by clients that count control frames.
@Suite("StreamLimit", .serialized)
struct StreamLimitTests {
    static let device = EndToEndTests.device

    /// A swift-nio-http2 client (AsyncHTTPClient over HTTP/2) trusting the test CA.
    static func client() throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(Curl.caFile))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends `count` pushes one after another, alternating an accepted one and one rejected 400 BadPriority.
    /// Returns the statuses, and the errors in place of the statuses that never came.
    static func alternate(_ count: Int, port: Int, client: HTTPClient) async -> (statuses: [Int], errors: [String]) {
        let token = testProviderToken()
        var statuses: [Int] = []
        var errors: [String] = []
        for index in 0..<count {
            var request = HTTPClientRequest(url: "https://localhost:\(port)/3/device/\(Self.device)")
            request.method = .POST
            request.headers.add(name: "authorization", value: "bearer \(token)")
            request.headers.add(name: "apns-topic", value: "com.example.app")
            request.headers.add(name: "apns-push-type", value: "alert")
            request.headers.add(name: "apns-priority", value: index % 2 == 0 ? "10" : "7")
            request.body = .bytes(ByteBuffer(string: EndToEndTests.alert))
            do {
                let response = try await client.execute(request, timeout: .seconds(5))
                _ = try await response.body.collect(upTo: 4096)
                statuses.append(Int(response.status.code))
            } catch {
                errors.append("push \(index): \(error)")
            }
        }
        return (statuses, errors)
    }

    @Test("1,000 alternating accepted and rejected pushes from AsyncHTTPClient all answered on one connection")
    func swiftNIOHTTP2Client() async throws {
        try await withTestServer { server in
            let client = try Self.client()
            let started = ContinuousClock.now
            let (statuses, errors) = await Self.alternate(1000, port: server.port, client: client)
            let elapsed = ContinuousClock.now - started
            try await client.shutdown()

            #expect(errors.isEmpty, "\(errors.count) pushes failed, first: \(errors.first ?? "")")
            #expect(statuses.count == 1000)
            #expect(statuses == (0..<1000).map { $0 % 2 == 0 ? 200 : 400 })
            let records = server.journal.records()
            #expect(records.count == 1000)
            #expect(Set(records.map(\.connectionID)).count == 1, "the client had to reconnect")
            // The preface's SETTINGS, then at most one per started second of the run (the default interval).
            let settings = server.metrics.controlFramesSent.settings
            let bound = 2 + Int(elapsed.components.seconds) + 1
            #expect(settings <= bound, "\(settings) SETTINGS in \(elapsed), bound \(bound)")
            #expect(server.metrics.controlFramesSent.pingAcks == 0)
            // The connection window's one WINDOW_UPDATE at the start; none per push.
            #expect(server.metrics.controlFramesSent.windowUpdates <= 2)
        }
    }

    @Test(
        "nghttp sees one SETTINGS per interval during alternating pushes, and one per flip with 0ms",
        .enabled(if: Nghttp.isInstalled, "needs nghttp from nghttp2-client (.ci/run installs it)"))
    func settingsPerInterval() async throws {
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-stream-limit.json")
        try EndToEndTests.alert.write(to: body, atomically: true, encoding: .utf8)
        /// 60 pushes on one connection (`-M 1`: one stream until the server's SETTINGS arrive), alternating a bad
        /// and a good device token.
        func run(interval: Duration) async throws -> (limits: [Int], elapsed: Duration, sent: Int) {
            var scenario = Scenario.embeddedDefault(port: 0)
            scenario.world.fidelity.streamLimitAnnounceInterval = interval
            return try await withTestServer(scenario: scenario) { server in
                let base = "https://localhost:\(server.port)/3/device/"
                // Distinct URIs (nghttp fetches each once): a malformed token, then a well-formed one.
                let uris = (0..<60).map { base + ($0 % 2 == 0 ? "xyz\($0)" : String(format: "%064x", $0)) }
                let started = ContinuousClock.now
                let output = try Nghttp.run(
                    ["-M", "1", "-d", body.path, "-H", "apns-topic: com.example.app",
                     "-H", "authorization: bearer \(testProviderToken())"] + uris)
                let elapsed = ContinuousClock.now - started
                #expect(server.journal.count == 60, "\(output.suffix(2000))")
                let limits = TransportTests.announcedStreamLimits(output)
                return (limits, elapsed, server.metrics.controlFramesSent.settings)
            }
        }
        let immediate = try await run(interval: .zero)
        // Every flip is a SETTINGS: the preface's, then 1000 and 1 after each good and bad push.
        #expect(immediate.limits.count >= 40, "\(immediate.limits)")

        let interval = Duration.milliseconds(200)
        let coalesced = try await run(interval: interval)
        let intervals = Int((coalesced.elapsed / interval).rounded(.up))
        // The preface's, the first flip at once, then at most one per interval of the run.
        #expect(coalesced.limits.count <= 2 + intervals, "\(coalesced.limits) in \(coalesced.elapsed)")
        #expect(coalesced.limits.count < immediate.limits.count / 2)
        #expect(coalesced.sent >= coalesced.limits.count)
        #expect(coalesced.limits.first == 1)
    }
}
