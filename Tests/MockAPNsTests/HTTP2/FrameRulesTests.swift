import Foundation
import Testing

@testable import MockAPNs

/// RFC 9113 §5.1 frame rules on closed and lower streams, frame by frame over cleartext HTTP/2.
@Suite("FrameRules", .serialized)
struct FrameRulesTests {
    static let path = HTTP2ClientFrames.pushPath
    static let headers = HTTP2ClientFrames.pushHeaders
    static let streamClosed: UInt32 = 0x5
    static let protocolError: UInt32 = 0x1

    @Test("HEADERS on a stream closed after its request and answer: GOAWAY STREAM_CLOSED, not a second push")
    func headersOnClosedStream() async throws {
        try await withBurstServer { server, port in
            var frames = HTTP2ClientFrames()
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 1
            let first = frames.takeBytes()
            frames.nextRequest(onStream: 1)
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 1 again
            let answer = try await RawTCP.converse(port: port, writes: [first, frames.takeBytes()])
            let goaway = try #require(RawTCP.goaway(in: answer))
            #expect(goaway.errorCode == Self.streamClosed)
            #expect(goaway.lastStreamID == 1)
            #expect(goaway.debug == "HEADERS: stream 1 closed")
            #expect(server.journal.records().map(\.streamID) == [1])
            try await RobustnessTests.stillServes(server)
        }
    }

    @Test("DATA on a stream closed after its request and answer: GOAWAY STREAM_CLOSED")
    func dataOnClosedStream() async throws {
        try await withBurstServer { server, port in
            var frames = HTTP2ClientFrames()
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 1
            let late = RawTCP.frame(type: 0x0, flags: 0x1, stream: 1, payload: Array("{}".utf8))
            let answer = try await RawTCP.converse(port: port, writes: [frames.takeBytes(), late])
            let goaway = try #require(RawTCP.goaway(in: answer))
            #expect(goaway.errorCode == Self.streamClosed)
            #expect(goaway.lastStreamID == 1)
            #expect(goaway.debug == "DATA: stream 1 closed")
            #expect(server.journal.count == 1)
        }
    }

    @Test("DATA after END_STREAM while the stream awaits its answer: nghttp2's GOAWAY STREAM_CLOSED")
    func dataAfterEndStreamSameRead() async throws {
        try await withBurstServer { server, port in
            var frames = HTTP2ClientFrames()
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 1
            frames.append(RawTCP.frame(type: 0x0, flags: 0x1, stream: 1, payload: Array("{}".utf8)))
            let answer = try await RawTCP.converse(port: port, writes: [frames.takeBytes()])
            let goaway = try #require(RawTCP.goaway(in: answer))
            #expect(goaway.errorCode == Self.streamClosed)
            #expect(goaway.lastStreamID == 1)
            // nghttp2 ends the session with its GOAWAY: the request is recorded once, as never answered.
            #expect(RawTCP.frames(in: answer).filter { $0.type == 0x1 }.isEmpty)
            let records = server.journal.records()
            #expect(records.map(\.streamID) == [1])
            #expect(records.first?.response == nil)
            #expect(records.first?.fault == "connection ended by an HTTP/2 protocol error before the answer")
        }
    }

    @Test("a new stream below one already opened: GOAWAY PROTOCOL_ERROR; nothing above it is recorded")
    func lowerStreamID() async throws {
        try await withBurstServer { server, port in
            var frames = HTTP2ClientFrames()
            frames.nextRequest(onStream: 5)
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 5
            let first = frames.takeBytes()
            frames.nextRequest(onStream: 3)
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 3: lower
            frames.nextRequest(onStream: 7)
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 7: after the error
            let answer = try await RawTCP.converse(port: port, writes: [first, frames.takeBytes()])
            let goaway = try #require(RawTCP.goaway(in: answer))
            #expect(goaway.errorCode == Self.protocolError)
            #expect(goaway.lastStreamID == 5)
            #expect(goaway.debug == "HEADERS: stream 3 is below stream 5, already opened")
            #expect(server.journal.records().map(\.streamID) == [5])
        }
    }

    @Test("a lower stream in the same read as the higher one: GOAWAY PROTOCOL_ERROR covering every record")
    func lowerStreamIDSameRead() async throws {
        try await withBurstServer { server, port in
            var frames = HTTP2ClientFrames()
            frames.nextRequest(onStream: 5)
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 5
            frames.nextRequest(onStream: 3)
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 3
            frames.nextRequest(onStream: 7)
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 7
            let answer = try await RawTCP.converse(port: port, writes: [frames.takeBytes()])
            let goaway = try #require(RawTCP.goaway(in: answer))
            #expect(goaway.errorCode == Self.protocolError)
            #expect(goaway.lastStreamID == 5)
            #expect(server.journal.records().allSatisfy { $0.streamID <= goaway.lastStreamID })
            #expect(server.journal.records().map(\.streamID) == [5])
        }
    }

    /// h2spec 5.1/8 and 5.1/9: a stream opened, reset by the client (RST_STREAM CANCEL), then DATA or HEADERS on it.
    @Test(
        "DATA or HEADERS after the client's own RST_STREAM: GOAWAY STREAM_CLOSED, in a later read or the same one",
        arguments: [(false, false), (true, false), (false, true), (true, true)])
    func frameAfterClientReset(isHeaders: Bool, sameRead: Bool) async throws {
        try await withBurstServer { server, port in
            var frames = HTTP2ClientFrames()
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 1
            frames.reset(frames.partialRequest(path: Self.path, headers: Self.headers, bodyPrefix: "{"))  // 3
            let first = sameRead ? [] : frames.takeBytes()
            if isHeaders {
                frames.nextRequest(onStream: 3)
                frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 3 again
            } else {
                frames.append(RawTCP.frame(type: 0x0, flags: 0x1, stream: 3, payload: Array("}".utf8)))
            }
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 5: after the error
            let writes = sameRead ? [frames.takeBytes()] : [first, frames.takeBytes()]
            let answer = try await RawTCP.converse(port: port, writes: writes, timeout: 1)
            let goaway = try #require(RawTCP.goaway(in: answer), "no GOAWAY: the frame after the reset was ignored")
            #expect(goaway.errorCode == Self.streamClosed)
            #expect(goaway.lastStreamID == 3)
            #expect(goaway.debug == "\(isHeaders ? "HEADERS" : "DATA"): stream 3 closed")
            #expect(server.journal.records().map(\.streamID) == [1])
        }
    }

    @Test("a stream the client reset, then a new request: the connection goes on")
    func newRequestAfterClientReset() async throws {
        try await withBurstServer { server, port in
            var frames = HTTP2ClientFrames()
            frames.reset(frames.partialRequest(path: Self.path, headers: Self.headers, bodyPrefix: "{"))  // 1
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 3
            let first = frames.takeBytes()
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 5
            let answer = try await RawTCP.converse(port: port, writes: [first, frames.takeBytes()], timeout: 0.5)
            #expect(RawTCP.goaway(in: answer) == nil)
            #expect(RawTCP.frames(in: answer).filter { $0.type == 0x1 }.map(\.stream) == [3, 5])
            #expect(server.journal.records().map(\.streamID) == [3, 5])
        }
    }

    @Test("DATA in flight for a stream above a GOAWAY's last-stream-id is ignored; that stream is not recorded")
    func dataAboveGoaway() async throws {
        let goawayToken = ScriptedRulesEndToEndTests.token(3)
        var scenario = try ScriptedRulesEndToEndTests.scenario(
            "  - { match: { token: \"\(goawayToken)\" }, fault: goaway }")
        scenario.world.fidelity.singleStreamUntilAuthenticated = false
        try await withTestServer(scenario: scenario, cleartext: true) { server in
            let port = try #require(server.cleartextPort)
            var frames = HTTP2ClientFrames()
            frames.request(path: "/3/device/\(goawayToken)", headers: Self.headers, body: EndToEndTests.alert)  // 1
            _ = frames.partialRequest(path: Self.path, headers: Self.headers, bodyPrefix: "{")  // 3: above the GOAWAY
            let first = frames.takeBytes()
            frames.append(RawTCP.frame(type: 0x0, flags: 0x1, stream: 3, payload: Array("}".utf8)))
            let answer = try await RawTCP.converse(port: port, writes: [first, frames.takeBytes()], timeout: 0.5)
            let goaways = RawTCP.frames(in: answer).filter { $0.type == 0x7 }
            #expect(goaways.count == 1, "only the scripted GOAWAY, no STREAM_CLOSED one")
            let goaway = try #require(RawTCP.goaway(in: answer))
            #expect(goaway.lastStreamID == 1 && goaway.errorCode == 0)
            #expect(server.journal.records().map(\.streamID) == [1])
        }
    }

    @Test("DATA in flight for a stream the server refused is ignored")
    func dataAfterRefusedStream() async throws {
        // The default scenario: one stream until a valid token, so stream 3 of the first write is refused.
        try await withTestServer(cleartext: true) { server in
            let port = try #require(server.cleartextPort)
            var frames = HTTP2ClientFrames()
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 1
            _ = frames.partialRequest(path: Self.path, headers: Self.headers, bodyPrefix: "{")  // 3: refused
            let first = frames.takeBytes()
            frames.append(RawTCP.frame(type: 0x0, flags: 0x1, stream: 3, payload: Array("}".utf8)))
            frames.nextRequest(onStream: 5)
            frames.request(path: Self.path, headers: Self.headers, body: EndToEndTests.alert)  // 5
            let answer = try await RawTCP.converse(port: port, writes: [first, frames.takeBytes()], timeout: 0.5)
            #expect(RawTCP.resets(in: answer).map(\.stream) == [3])
            #expect(RawTCP.goaway(in: answer) == nil)
            #expect(server.journal.records().map(\.streamID) == [1, 5])
        }
    }
}
