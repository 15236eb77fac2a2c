import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import MockAPNs

/// A provider on real time survives a moved clock: its token's `iat` is read on the mock's clock with one shift
/// decided on first sight. Pushes with curl (a new connection each) or on one hand-made HTTP/2 connection, the
/// clock moved through the control API.
@Suite("Provider tokens on a moved clock", .serialized)
struct ProviderTokenClockEndToEndTests {
    typealias Push = ClockEndToEndTests

    /// The note of a token read as real time, up to the time it is taken as issued at.
    static func realTimeNote(_ span: String) -> String {
        "provider token iat is real time; the mock's clock is \(span) ahead: taken as issued at "
    }

    /// The notes of the last record in the journal.
    static func lastNotes(_ server: MockAPNsServer) -> [String] {
        server.journal.records().last?.verdict.notes ?? []
    }

    @Test("a provider on real time: its token in use expires 61m after the move, a token minted after it is fresh")
    func realTimeProvider() async throws {
        try await withControlServer { server, control in
            let minted = Date()
            let tokenA = testProviderToken(at: minted - 10)
            #expect(try await Push.push(server, jwt: tokenA).status == 200)
            #expect(Self.lastNotes(server).isEmpty)

            try await Push.move(control, #"{"advance": "61m"}"#)
            let expired = try await Push.push(server, jwt: tokenA)
            #expect(expired.status == 403)
            #expect(expired.body.contains("ExpiredProviderToken"), "\(expired.body)")

            // Minted now by real time: taken as issued at the mock's now.
            let tokenB = testProviderToken(at: minted)
            #expect(try await Push.push(server, jwt: tokenB).status == 200)
            let note = try #require(Self.lastNotes(server).first, "\(Self.lastNotes(server))")
            let issued = Timestamp.text(Date(timeIntervalSince1970: minted.timeIntervalSince1970.rounded(.down) + 3660))
            #expect(note == Self.realTimeNote("1h1m") + issued)
            #expect(try await Push.push(server, jwt: tokenB).status == 200)
            #expect(Self.lastNotes(server) == [note])

            // B ages with the mock's clock from there: 30 minutes on it is fine, 61 minutes on it is expired.
            try await Push.move(control, #"{"advance": "30m"}"#)
            #expect(try await Push.push(server, jwt: tokenB).status == 200)
            try await Push.move(control, #"{"advance": "31m"}"#)
            let old = try await Push.push(server, jwt: tokenB)
            #expect(old.status == 403)
            #expect(old.body.contains("ExpiredProviderToken"), "\(old.body)")
        }
    }

    @Test("a provider on the mock's time: after advance 9h an iat at the mock's now is fine, 61m before it expired")
    func inSyncProvider() async throws {
        try await withControlServer { server, control in
            try await Push.move(control, #"{"advance": "9h"}"#)
            let mockNow = try await server.clock().now
            #expect(try await Push.push(server, jwt: testProviderToken(at: mockNow)).status == 200)
            #expect(Self.lastNotes(server).isEmpty)
            let old = try await Push.push(server, jwt: testProviderToken(at: mockNow - 61 * 60))
            #expect(old.status == 403)
            #expect(old.body.contains("ExpiredProviderToken"), "\(old.body)")
            #expect(Self.lastNotes(server).isEmpty)
        }
    }

    @Test("the 20-minute refresh rule measures the shifted iat: 5 minutes apart is 429, across a 61m move it is not")
    func refreshRateOnShiftedTime() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.listen.cleartextPort = 0
        try await withControlServer(scenario: scenario) { server, control in
            let port = try #require(server.cleartextPort)
            let minted = Date()

            // No move: iat 5 minutes apart on one connection, as today.
            var first = try OneConnection(port: port)
            defer { first.disconnect() }
            try await first.push(testProviderToken(at: minted - 300), server: server, count: 1)
            try await first.push(testProviderToken(at: minted), server: server, count: 2)
            #expect(server.journal.records().map { $0.response?.status } == [200, 429])
            #expect(server.journal.records().last?.reason == "TooManyProviderTokenUpdates")

            // A, the clock moved 61m, then B minted seconds after A by real time: 61 minutes apart on the clock.
            var second = try OneConnection(port: port)
            defer { second.disconnect() }
            try await second.push(testProviderToken(at: minted - 20), server: server, count: 3)
            try await Push.move(control, #"{"advance": "61m"}"#)
            try await second.push(testProviderToken(at: minted - 10), server: server, count: 4)
            let records = server.journal.records()
            #expect(records.map { $0.response?.status } == [200, 429, 200, 200])
            #expect(records[2].connectionID == records[3].connectionID)
            #expect(records[3].verdict.notes.first?.hasPrefix(Self.realTimeNote("1h1m")) == true)
        }
    }

    @Test("moved back to real time, a connection's token shifted while the clock was ahead is judged again")
    func movedBack() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.listen.cleartextPort = 0
        try await withControlServer(scenario: scenario) { server, control in
            let port = try #require(server.cleartextPort)
            var connection = try OneConnection(port: port)
            defer { connection.disconnect() }
            let minted = Date()
            try await Push.move(control, #"{"advance": "9h"}"#)
            // A, minted 22 minutes ago by real time: read 9 hours later while the clock is ahead.
            let tokenA = testProviderToken(at: minted - 1320)
            try await connection.push(tokenA, server: server, count: 1)
            try await Push.move(control, #"{"reset": true}"#)
            // Still accepted (not "9 hours in the future"), and B, minted 22 minutes after A, is no refresh-rate
            // breach (measured against A's shifted iat, B would look 9 hours older than A: 429).
            try await connection.push(tokenA, server: server, count: 2)
            try await connection.push(testProviderToken(at: minted), server: server, count: 3)
            let records = server.journal.records()
            #expect(records.map { $0.response?.status } == [200, 200, 200], "\(records.map { $0.reason ?? "" })")
            #expect(Set(records.map(\.connectionID)).count == 1)
        }
    }

    @Test("a reset forgets the iat values seen: a token seen after the reset ages from there")
    func resetForgets() async throws {
        try await withControlServer { server, control in
            for reset in [("POST", "/v1/reset", ""), ("POST", "/v1/clock", #"{"reset": true}"#)] {
                // Seen first 61m ahead, by real time: shifted, so fresh on the mock's clock.
                let token = testProviderToken(at: Date() - (reset.1 == "/v1/reset" ? 30 : 40))
                try await Push.move(control, #"{"advance": "61m"}"#)
                #expect(try await Push.push(server, jwt: token).status == 200)
                #expect(Self.lastNotes(server).first?.hasPrefix(Self.realTimeNote("1h1m")) == true)

                // Forgotten on the reset: seen again on real time, it is judged as any token in use would be.
                let answer = try await ControlCurl.call(reset.0, control, reset.1, body: reset.2)
                #expect(answer.status == 200 || answer.status == 204, "\(reset.1): \(answer.text)")
                #expect(try await Push.push(server, jwt: token).status == 200)
                try await Push.move(control, #"{"advance": "61m"}"#)
                let expired = try await Push.push(server, jwt: token)
                #expect(expired.status == 403, "\(reset.1)")
                #expect(expired.body.contains("ExpiredProviderToken"), "\(reset.1): \(expired.body)")
                try await Push.move(control, #"{"reset": true}"#)
            }
        }
    }
}

/// One cleartext HTTP/2 connection kept open between pushes, as a provider keeps its connection; the answers are
/// read back from the journal.
struct OneConnection {
    private let fd: Int32
    private var frames = HTTP2ClientFrames()

    init(port: Int) throws {
        fd = try RawTCP.connected(port: port)
    }

    /// Sends an alert push with provider token `jwt` and waits until the journal holds `count` records.
    mutating func push(_ jwt: String, server: MockAPNsServer, count: Int) async throws {
        frames.request(
            path: HTTP2ClientFrames.pushPath,
            headers: [
                ("apns-topic", "com.example.app"), ("apns-push-type", "alert"), ("authorization", "bearer \(jwt)"),
            ], body: EndToEndTests.alert)
        let bytes = frames.takeBytes()
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #expect(sent == bytes.count)
        let waited = await server.journal.waitForRecords(matching: JournalQuery(), count: count, timeout: .seconds(10))
        #expect(waited.satisfied, "\(waited.records.count) of \(count) records")
    }

    func disconnect() {
        close(fd)
    }
}
