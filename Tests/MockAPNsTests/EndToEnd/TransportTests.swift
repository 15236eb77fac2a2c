import Foundation
import Testing
@testable import MockAPNs

/// TLS and HTTP/2 behaviour: ALPN or none, mutual TLS, SETTINGS, stream limits, GOAWAY.
@Suite("Transport", .serialized)
struct TransportTests {
    static let device = EndToEndTests.device
    static let alert = EndToEndTests.alert

    @Test("speaks HTTP/2 right after the handshake to a client that offers no ALPN (aioapns, Pushy)")
    func noALPN() async throws {
        try await withTestServer { server in
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: EndToEndTests.pushHeaders(),
                body: Self.alert, extraArguments: ["--no-alpn", "--http2-prior-knowledge"])
            #expect(response.httpVersion == "2")
            #expect(response.status == 200)
            #expect(server.journal.records().first?.accepted == true)
        }
    }

    @Test("accepts the host header in place of :authority")
    func hostHeader() async throws {
        try await withTestServer { server in
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)",
                headers: EndToEndTests.pushHeaders(["host": "api.sandbox.push.apple.com"]), body: Self.alert)
            #expect(response.status == 200)
        }
    }

    @Test("takes a client certificate as certificate authentication, with its topics")
    func mutualTLS() async throws {
        try await withTestServer { server in
            let certs = AuthTestFiles.packageRoot.appendingPathComponent("certs").path
            var headers = EndToEndTests.pushHeaders(["apns-topic": "com.example.app.voip", "apns-push-type": "voip"])
            headers["authorization"] = nil
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: headers, body: Self.alert,
                extraArguments: ["--cert", "\(certs)/client-multitopic.pem", "--key", "\(certs)/client-multitopic.key"])
            #expect(response.status == 200)
            let record = try #require(server.journal.records().first)
            #expect(record.auth?.kind == "certificate")
            #expect(record.auth?.certificateTopics == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        }
    }

    @Test("answers a liveactivity push over a certificate 400 TopicDisallowed")
    func liveActivityOverCertificate() async throws {
        try await withTestServer { server in
            let certs = AuthTestFiles.packageRoot.appendingPathComponent("certs").path
            let headers = [
                "apns-topic": "com.example.app.push-type.liveactivity", "apns-push-type": "liveactivity",
            ]
            let response = try await Curl.request(
                port: server.port, path: "/3/device/\(Self.device)", headers: headers,
                body: #"{"aps":{"event":"update","timestamp":1800000000,"content-state":{"eta":5}}}"#,
                extraArguments: ["--cert", "\(certs)/client-sandbox.pem", "--key", "\(certs)/client-sandbox.key"])
            #expect(response.status == 400)
            #expect(response.body == #"{"reason":"TopicDisallowed"}"#)
        }
    }

    @Test(
        "announces APNs's SETTINGS, one stream until a valid token, then 1000",
        .enabled(if: Nghttp.isInstalled, "needs nghttp from nghttp2-client (.ci/run installs it)"))
    func settingsAndStreamLimit() async throws {
        try await withTestServer { server in
            let body = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-body.json")
            try Self.alert.write(to: body, atomically: true, encoding: .utf8)
            let output = try await Nghttp.run([
                "-d", body.path, "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert",
                "-H", "authorization: bearer \(testProviderToken())",
                "https://localhost:\(server.port)/3/device/\(Self.device)",
            ])
            #expect(output.contains("[SETTINGS_HEADER_TABLE_SIZE(0x01):4096]"))
            #expect(output.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"))
            #expect(output.contains("[SETTINGS_INITIAL_WINDOW_SIZE(0x04):65535]"))
            #expect(output.contains("[SETTINGS_MAX_FRAME_SIZE(0x05):16384]"))
            #expect(output.contains("[SETTINGS_MAX_HEADER_LIST_SIZE(0x06):8000]"))
            #expect(output.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1000]"), "\(output)")
            #expect(output.contains("recv WINDOW_UPDATE frame <length=4, flags=0x00, stream_id=0>"))
            #expect(output.contains(":status: 200"))
        }
    }

    @Test(
        "sends GOAWAY BadCertificateEnvironment to a sandbox certificate on a production server",
        .enabled(if: Nghttp.isInstalled, "needs nghttp from nghttp2-client (.ci/run installs it)"))
    func certificateEnvironmentGoaway() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.environment = .production
        try await withTestServer(scenario: scenario) { server in
            let certs = AuthTestFiles.packageRoot.appendingPathComponent("certs").path
            let output = try await Nghttp.run([
                "--cert", "\(certs)/client-sandbox.pem", "--key", "\(certs)/client-sandbox.key",
                "https://localhost:\(server.port)/3/device/\(Self.device)",
            ])
            #expect(output.contains("recv GOAWAY frame"), "\(output)")
            #expect(output.contains("last_stream_id=0, error_code=NO_ERROR(0x00)"))
            #expect(output.contains(#"{"reason":"BadCertificateEnvironment"}"#))
            #expect(server.journal.count == 0)
        }
    }

    @Test(
        "drops to one stream after a rejected push and back after a success",
        .enabled(if: Nghttp.isInstalled, "needs nghttp from nghttp2-client (.ci/run installs it)"))
    func errorStanding() async throws {
        // Every flip announced at once (APNs's own behaviour); the default interval coalesces them (StreamLimit).
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.fidelity.streamLimitAnnounceInterval = .zero
        try await withTestServer(scenario: scenario) { server in
            let body = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-body2.json")
            try Self.alert.write(to: body, atomically: true, encoding: .utf8)
            // `-M 1`: nghttp assumes one stream before the server's SETTINGS arrive, so it sends the three
            // requests one after another on one connection instead of a burst the server would refuse.
            let base = "https://localhost:\(server.port)/3/device/"
            let output = try await Nghttp.run([
                "-M", "1", "-d", body.path, "-H", "apns-topic: com.example.app", "-H", "authorization: bearer \(testProviderToken())",
                base + "xyz", base + Self.device, base + "abc",
            ])
            #expect(output.components(separatedBy: #"{"reason":"BadDeviceToken"}"#).count == 3, "\(output)")
            #expect(Self.announcedStreamLimits(output) == [1, 1000, 1], "\(output)")
            #expect(server.journal.records().map(\.accepted) == [false, true, false])
        }
    }

    @Test("refuses a first burst sent before SETTINGS(1) arrived, and serves it with the switch off")
    func firstBurst() async throws {
        // Three requests in the client's first write, before it can have read the server's SETTINGS.
        func request(stream: UInt32) -> [UInt8] {
            let path = Array("/3/device/\(Self.device)".utf8)
            // HPACK: :method POST and :scheme http from the static table, :path and :authority as literals.
            let block: [UInt8] = [0x83, 0x86, 0x04, UInt8(path.count)] + path + [0x01, 0x09] + Array("localhost".utf8)
            return RawTCP.frame(type: 0x1, flags: 0x5, stream: stream, payload: block)  // END_STREAM | END_HEADERS
        }
        let burst = RawTCP.preface + RawTCP.frame(type: 0x4) + request(stream: 1) + request(stream: 3) + request(stream: 5)
        /// The streams the answer resets with REFUSED_STREAM (RST_STREAM, error code 7).
        func refusedStreams(_ answer: [UInt8]) -> [UInt32] {
            var refused: [UInt32] = []
            var offset = 0
            while offset + 9 <= answer.count {
                let length = Int(answer[offset]) << 16 | Int(answer[offset + 1]) << 8 | Int(answer[offset + 2])
                let stream = answer[(offset + 5)..<(offset + 9)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
                if answer[offset + 3] == 0x3, length == 4, offset + 13 <= answer.count, answer[offset + 12] == 7 {
                    refused.append(stream)
                }
                offset += 9 + length
            }
            return refused
        }
        try await withTestServer(cleartext: true) { server in
            let answer = try await RawTCP.exchange(port: try #require(server.cleartextPort), bytes: burst, timeout: 0.5)
            #expect(refusedStreams(answer) == [3, 5])
            #expect(server.journal.count == 1)
        }
        var relaxed = Scenario.embeddedDefault(port: 0)
        relaxed.world.fidelity.singleStreamUntilAuthenticated = false
        try await withTestServer(scenario: relaxed, cleartext: true) { server in
            let answer = try await RawTCP.exchange(port: try #require(server.cleartextPort), bytes: burst, timeout: 0.5)
            #expect(refusedStreams(answer).isEmpty)
            #expect(server.journal.count == 3)
        }
    }

    /// The MAX_CONCURRENT_STREAMS values in the SETTINGS frames nghttp received, in order.
    static func announcedStreamLimits(_ output: String) -> [Int] {
        var inReceivedSettings = false
        var limits: [Int] = []
        for line in output.split(separator: "\n") {
            if line.contains(" recv ") || line.contains(" send ") {
                inReceivedSettings = line.contains("recv SETTINGS frame")
            } else if inReceivedSettings, let range = line.range(of: "SETTINGS_MAX_CONCURRENT_STREAMS(0x03):") {
                limits.append(Int(line[range.upperBound...].prefix { $0.isNumber }) ?? -1)
            }
        }
        return limits
    }
}
