import Foundation
import Testing

@testable import MockAPNs

/// Requests completed and then reset at once, by the thousand (HTTP/2 rapid reset): the journal and the GOAWAY
/// nghttp2's RST_STREAM rate limit sends must agree.
@Suite("RapidReset", .serialized)
struct RapidResetTests {
    @Test("no record above the GOAWAY's last-stream-id; each request below it recorded once, marked unanswered")
    func journalAgreesWithGoaway() async throws {
        try await withBurstServer { server, port in
            var frames = HTTP2ClientFrames()
            for _ in 0..<3000 {
                frames.request(
                    path: HTTP2ClientFrames.pushPath, headers: HTTP2ClientFrames.pushHeaders, body: EndToEndTests.alert)
                frames.append(RawTCP.frame(type: 0x3, stream: UInt32(frames.lastStream), payload: [0, 0, 0, 8]))
            }
            let answer = try await RawTCP.converse(port: port, writes: [frames.takeBytes()], timeout: 3)
            let goaway = try #require(RawTCP.goaway(in: answer), "nghttp2's rate limit should end the connection")
            let last = Int32(goaway.lastStreamID)
            #expect(last < 5999, "the limit trips before the last stream")

            let records = server.journal.records()
            let streams = records.map(\.streamID)
            #expect(streams.filter { $0 > last }.isEmpty, "\(streams.filter { $0 > last }.count) records above \(last)")
            #expect(Set(streams).count == streams.count, "a stream recorded twice")
            // Every complete request up to the last-stream-id: never lost.
            #expect(streams.count == Int(last + 1) / 2)
            #expect(Set(records.map(\.connectionID)).count == 1)
            // Reset before its answer went out: recorded without an answer, and the record says why.
            let unanswered = records.filter { $0.response == nil }
            #expect(!unanswered.isEmpty)
            #expect(unanswered.allSatisfy { $0.fault == "stream closed by the client before the answer" })
            #expect(unanswered.allSatisfy { $0.json["fault"]?.stringValue == $0.fault })
            try await RobustnessTests.stillServes(server)
        }
    }
}
