import Foundation
import Testing
@testable import MockAPNs

/// Bad input never crashes the server or loses a record; after each abuse a normal push still works.
@Suite("Robustness", .serialized)
struct RobustnessTests {
    static func stillServes(_ server: MockAPNsServer, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let response = try await Curl.request(
            port: server.port, path: "/3/device/\(EndToEndTests.device)", headers: EndToEndTests.pushHeaders(),
            body: EndToEndTests.alert)
        #expect(response.status == 200, sourceLocation: sourceLocation)
    }

    @Test("survives garbage instead of a TLS handshake")
    func garbageHandshake() async throws {
        try await withTestServer { server in
            try await RawTCP.exchange(port: server.port, bytes: Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            try await RawTCP.exchange(port: server.port, bytes: (0..<4096).map { _ in UInt8.random(in: 0...255) })
            try await RawTCP.exchange(port: server.port, bytes: [0x16, 0x03, 0x01, 0xFF, 0xFF], abort: true)
            try await Self.stillServes(server)
            #expect(server.metrics.failedHandshakes >= 2)
        }
    }

    @Test("answers an HTTP/1.1 request on the cleartext port with 505 and goes on")
    func http1OnCleartext() async throws {
        try await withTestServer(cleartext: true) { server in
            let port = try #require(server.cleartextPort)
            let answer = try await RawTCP.exchange(
                port: port, bytes: Array("POST /3/device/ab HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 505"))
            try await Self.stillServes(server)
        }
    }

    @Test("answers malformed HTTP/2 frames with GOAWAY and goes on")
    func malformedFrames() async throws {
        try await withTestServer(cleartext: true) { server in
            let port = try #require(server.cleartextPort)
            // A SETTINGS frame on stream 1 and a DATA frame on stream 0 are connection errors.
            let bad = RawTCP.preface + RawTCP.frame(type: 0x4) + RawTCP.frame(type: 0x4, stream: 1, payload: [0, 3, 0, 0, 0, 1])
            let answer = try await RawTCP.exchange(port: port, bytes: bad)
            #expect(answer.contains(0x07), "a GOAWAY frame (type 7) comes back")
            let worse = RawTCP.preface + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + Array(repeating: 0xAB, count: 100)
            try await RawTCP.exchange(port: port, bytes: worse)
            try await RawTCP.exchange(port: port, bytes: Array(RawTCP.preface.prefix(10)), abort: true)
            try await Self.stillServes(server)
            #expect(server.journal.count == 1)
        }
    }

    @Test("survives a client that sends half a request and vanishes")
    func vanishingClient() async throws {
        try await withTestServer(cleartext: true) { server in
            let port = try #require(server.cleartextPort)
            // HEADERS without END_STREAM (a literal header block: :method POST), then a hard close.
            let headers: [UInt8] = [0x83, 0x86, 0x44, 0x05] + Array("/3/de".utf8)
            let bytes = RawTCP.preface + RawTCP.frame(type: 0x4) + RawTCP.frame(type: 0x1, flags: 0x4, stream: 1, payload: headers)
            for _ in 0..<20 { try await RawTCP.exchange(port: port, bytes: bytes, abort: true) }
            try await Self.stillServes(server)
            #expect(server.journal.count == 1)
        }
    }

    @Test("answers and records the requests a client completes, and neither those it resets mid-request")
    func clientResetsMidRequest() async throws {
        // Every stream goes out in the client's first write, before it could read the server's SETTINGS.
        try await withBurstServer { server, port in
            let path = HTTP2ClientFrames.pushPath
            let headers = HTTP2ClientFrames.pushHeaders
            var frames = HTTP2ClientFrames()
            frames.request(path: path, headers: headers, body: EndToEndTests.alert)  // 1
            frames.reset(frames.partialRequest(path: path, headers: headers, bodyPrefix: "{\"aps\":"))  // 3
            frames.reset(frames.partialRequest(path: path, headers: headers))  // 5: headers only
            frames.request(path: path, headers: headers, body: EndToEndTests.alert)  // 7
            // The same again on one more stream, after the resets: its payload was shared with stream 1's.
            frames.request(path: path, headers: headers, body: EndToEndTests.alert)  // 9
            let answer = try await RawTCP.exchange(port: port, bytes: frames.bytes, timeout: 1)

            let answered = RawTCP.frames(in: answer).filter { $0.type == 0x1 }.map(\.stream)
            #expect(answered == [1, 7, 9])
            let records = server.journal.records()
            #expect(records.map(\.streamID) == [1, 7, 9])
            #expect(records.allSatisfy { $0.accepted && $0.response?.status == 200 })
            #expect(records.allSatisfy { $0.payloadText == EndToEndTests.alert })
            try await Self.stillServes(server)
        }
    }

    @Test("resets a stream whose headers are far too large, and goes on")
    func oversizedHeaders() async throws {
        try await withTestServer { server in
            let huge = String(repeating: "x", count: 40_000)
            let result = try await Curl.run([
                "-sS", "--http2", "--cacert", Curl.caFile, "-H", "x-huge: \(huge)", "--data-binary", "{}",
                "https://localhost:\(server.port)/3/device/\(EndToEndTests.device)",
            ])
            #expect(result.0 != 0)
            try await Self.stillServes(server)
        }
    }

    @Test(
        "records exactly the answers sent to a thousand connections opened and closed",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/h2load"), "needs h2load (nghttp2-client)"))
    func thousandConnections() async throws {
        try await withTestServer { server in
            let body = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-h2load.json")
            try EndToEndTests.alert.write(to: body, atomically: true, encoding: .utf8)
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/h2load")
            process.arguments = [
                "-n", "1000", "-c", "1000", "-m", "1", "-d", body.path,
                "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert",
                "-H", "authorization: bearer \(testProviderToken())",
                "https://127.0.0.1:\(server.port)/3/device/\(EndToEndTests.device)",
            ]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let output = await String(decoding: out.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
            await process.waitUntilExit()
            let statusLine = try #require(output.split(separator: "\n").first { $0.hasPrefix("status codes:") })
            let answered = statusLine.split(separator: ",").compactMap { part in
                Int(part.split(separator: " ").first { Int($0) != nil } ?? "")
            }.reduce(0, +)
            #expect(answered == 1000, "\(output)")
            #expect(server.journal.count == answered)
            try await Self.stillServes(server)
        }
    }
}
