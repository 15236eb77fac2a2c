import Foundation
import Testing

@testable import MockAPNs

/// The movable clock drives what the mock decides and records: pushes with curl over HTTP/2 and TLS, the clock
/// moved through the control API.
@Suite("The clock drives decisions and records", .serialized)
struct ClockEndToEndTests {
    static let device = EndToEndTests.device

    /// POSTs an alert to `token` with provider token `jwt`, on a new connection (curl), off the concurrency pool.
    static func push(_ server: MockAPNsServer, to token: String = device, jwt: String) async throws -> Curl.Response {
        let port = server.port
        return try await Curl.request(
            port: port, path: "/3/device/\(token)", headers: EndToEndTests.pushHeaders(token: jwt),
            body: EndToEndTests.alert)
    }

    static func move(_ control: MockAPNsControlAPI, _ body: String) async throws {
        let answer = try await ControlCurl.call("POST", control, "/v1/clock", body: body)
        #expect(answer.status == 200, "\(answer.text)")
    }

    @Test("a provider token that is fine now is ExpiredProviderToken after advance 61m, and fine after reset")
    func providerTokenExpires() async throws {
        try await withControlServer { server, control in
            let jwt = testProviderToken()
            #expect(try await Self.push(server, jwt: jwt).status == 200)
            try await Self.move(control, #"{"advance": "59m"}"#)
            #expect(try await Self.push(server, jwt: jwt).status == 200)
            try await Self.move(control, #"{"advance": "2m"}"#)
            let expired = try await Self.push(server, jwt: jwt)
            #expect(expired.status == 403)
            #expect(expired.body.contains("ExpiredProviderToken"), "\(expired.body)")
            try await Self.move(control, #"{"reset": true}"#)
            #expect(try await Self.push(server, jwt: jwt).status == 200)
        }
    }

    @Test("a token's iat ahead of real time is accepted once the clock is there")
    func futureIssuedAtFollowsTheClock() async throws {
        try await withControlServer { server, control in
            let jwt = testProviderToken(at: Date() + 3 * 3600)
            #expect(try await Self.push(server, jwt: jwt).status == 403)
            try await Self.move(control, #"{"advance": "3h"}"#)
            #expect(try await Self.push(server, jwt: jwt).status == 200)
        }
    }

    @Test("an unregistered device's since and the 410 timestamp follow the clock")
    func unregisteredFollowsTheClock() async throws {
        try await withControlServer { server, control in
            // Unregistered from two hours ahead of real time: still active until the clock passes that.
            let since = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 7200).rounded(.down))
            let other = ControlAPITests.other
            let device = #"{"token": "\#(other)", "state": "unregistered", "since": "\#(Timestamp.text(since))"}"#
            #expect(try await ControlCurl.call("POST", control, "/v1/devices", body: device).status == 201)
            #expect(try await Self.push(server, to: other, jwt: testProviderToken()).status == 200)
            try await Self.move(control, #"{"advance": "3h"}"#)
            let gone = try await Self.push(server, to: other, jwt: testProviderToken(at: Date() + 3 * 3600))
            #expect(gone.status == 410)
            #expect(try JSONParser.parse(gone.body)["timestamp"]?.doubleValue == Double(Timestamp.millis(since)))

            // Unregistered now, on the clock: nine hours ahead of real time.
            #expect(
                try await ControlCurl.call("POST", control, "/v1/devices", body: #"{"token": "\#(Self.device)"}"#)
                    .status == 201)
            try await Self.move(control, #"{"advance": "6h"}"#)
            _ = try await ControlCurl.call("POST", control, "/v1/devices/\(Self.device)/unregister")
            let unregistered = try await Self.push(server, jwt: testProviderToken(at: Date() + 9 * 3600))
            #expect(unregistered.status == 410)
            let millis = try #require(try JSONParser.parse(unregistered.body)["timestamp"]?.doubleValue)
            #expect(abs(millis / 1000 - (Date().timeIntervalSince1970 + 9 * 3600)) < 10)
        }
    }

    @Test("records' receivedAt and answeredAt carry the clock's time")
    func recordsCarryTheClock() async throws {
        try await withControlServer { server, control in
            try await Self.move(control, #"{"set": "2030-01-01T00:00:00Z"}"#)
            let jwt = testProviderToken(at: Date(timeIntervalSince1970: 1_893_456_000))
            #expect(try await Self.push(server, jwt: jwt).status == 200)
            let records = try await ControlCurl.call("GET", control, "/v1/requests")
            let record = try #require(records.json?["records"]?.arrayValue?.first)
            for member in ["receivedAt", "answeredAt"] {
                let text = try #require(record[member]?.stringValue)
                #expect(text.hasPrefix("2030-01-01T00:0"), "\(member) \(text)")
            }
        }
    }

    @Test("moving the clock while pushes arrive loses neither a push nor a move")
    func concurrentMovesAndPushes() async throws {
        try await withControlServer { server, control in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<10 {
                            // Fresh by real time; the clock moves at most 20 minutes, inside the token's hour.
                            let status = try await Self.push(server, jwt: testProviderToken()).status
                            #expect(status == 200)
                        }
                    }
                }
                group.addTask {
                    for _ in 0..<20 { try await Self.move(control, #"{"advance": "1m"}"#) }
                }
                for _ in 0..<20 {
                    group.addTask { _ = try await server.advanceClock(by: .seconds(1)) }
                }
                try await group.waitForAll()
            }
            let clock = try await ControlCurl.call("GET", control, "/v1/clock")
            #expect(clock.json?["offset"] == "1220s")  // 20 × 1m + 20 × 1s: no move lost
            #expect(server.journal.count == 40)
            #expect(server.journal.records().allSatisfy { $0.response?.status == 200 })
        }
    }
}
