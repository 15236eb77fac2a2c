import Foundation
import Testing

@testable import MockAPNs

/// A scripted `goaway` fault with concurrent streams: the GOAWAY's last-stream-id and the journal agree, and the
/// streams above it are refused, frame by frame over cleartext HTTP/2.
@Suite("Goaway fault streams", .serialized)
struct GoawayFaultStreamsTests {
    static let headers = FrameRulesTests.headers
    static let refusedStream: UInt32 = 0x7

    static func path(_ token: Int) -> String { "/3/device/\(ScriptedRulesEndToEndTests.token(token))" }

    /// A cleartext server where token 1 gets a GOAWAY and token 2 an answer delayed 300 ms; bursts allowed.
    func withServer(_ body: (MockAPNsServer, Int) async throws -> Void) async throws {
        var scenario = try ScriptedRulesEndToEndTests.scenario(
            """
              - { match: { token: "\(ScriptedRulesEndToEndTests.token(1))" }, fault: goaway }
              - match: { token: "\(ScriptedRulesEndToEndTests.token(2))" }
                respond: { reason: InternalServerError, delay: 300ms }
            """)
        scenario.world.fidelity.singleStreamUntilAuthenticated = false
        try await withTestServer(scenario: scenario, cleartext: true) { server in
            try await body(server, try #require(server.cleartextPort))
        }
    }

    @Test("streams decided before the GOAWAY's stream (delayed or answered) are under its last-stream-id, recorded")
    func lastStreamIDCoversDecidedStreams() async throws {
        try await withServer { server, port in
            var frames = HTTP2ClientFrames()
            let body = EndToEndTests.alert
            // Stream 1 (the GOAWAY's token) completes last, after 3 (delayed) and 5 (answered at once).
            let goawayStream = frames.partialRequest(
                path: Self.path(1), headers: Self.headers, bodyPrefix: String(body.prefix(1)))
            frames.request(path: Self.path(2), headers: Self.headers, body: body)
            frames.request(path: "/3/device/\(EndToEndTests.device)", headers: Self.headers, body: body)
            frames.append(
                RawTCP.frame(type: 0x0, flags: 0x1, stream: goawayStream, payload: Array(body.dropFirst().utf8)))
            let answer = try await RawTCP.converse(port: port, writes: [frames.takeBytes()], timeout: 1)
            let goaway = try #require(RawTCP.goaway(in: answer))
            #expect(goaway.debug == #"{"reason":"Shutdown"}"#)
            let deadline = ContinuousClock.now + .seconds(3)
            while server.journal.count < 3, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let records = server.journal.records()
            #expect(Set(records.map(\.streamID)) == [1, 3, 5])
            #expect(records.allSatisfy { UInt32($0.streamID) <= goaway.lastStreamID }, "\(goaway.lastStreamID)")
            #expect(records.first { $0.streamID == 3 }?.response?.status == 500)
        }
    }

    @Test("a stream above the GOAWAY's last-stream-id is reset REFUSED_STREAM and not recorded")
    func streamsAboveAreRefused() async throws {
        try await withServer { server, port in
            var frames = HTTP2ClientFrames()
            frames.request(path: Self.path(1), headers: Self.headers, body: EndToEndTests.alert)  // 1: GOAWAY
            frames.request(path: "/3/device/\(EndToEndTests.device)", headers: Self.headers)  // 3
            let answer = try await RawTCP.converse(port: port, writes: [frames.takeBytes()], timeout: 1)
            let goaway = try #require(RawTCP.goaway(in: answer))
            #expect(goaway.lastStreamID == 1)
            let resets = RawTCP.resets(in: answer)
            #expect(resets.map(\.stream) == [3])
            #expect(resets.map(\.errorCode) == [Self.refusedStream])
            #expect(server.journal.records().map(\.streamID) == [1])
        }
    }
}
