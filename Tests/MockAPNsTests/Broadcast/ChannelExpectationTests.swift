import Foundation
import MockAPNsTesting
import Testing

@testable import MockAPNs

/// Expectations on broadcasts and channel operations (issue 24): `expect:`'s `channel:` and `operation:`, the
/// search's `channel:` and `operation:` words, and `MockAPNsTesting`'s `expectBroadcast`/`expectChannelOperation`,
/// against records a real server made from requests over real HTTP/2 (curl).
@Suite("Expectations on broadcasts and channel operations", .serialized)
struct ChannelExpectationTests {
    static let declared = "c2NvcmVzLTE="

    func loadError(_ yaml: String) -> String {
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, sourcePath: "test.yaml", baseDirectory: "/")
        } catch let error as ScenarioError {
            return error.description
        } catch {
            return "unexpected error \(error)"
        }
        return "loaded without an error"
    }

    /// A broadcast of `body` to `channel` over curl: its status.
    @discardableResult
    static func broadcast(_ server: MockAPNsServer, channel: String, expiration: String = "0") async throws -> Int {
        let response = try await Curl.request(
            port: server.port, path: BroadcastSendEndToEndTests.path,
            headers: BroadcastSendEndToEndTests.headers(channel: channel, ["apns-expiration": expiration]),
            body: BroadcastSendEndToEndTests.update)
        return response.status
    }

    @Test(
        "the loader refuses a bad channel:, operation: or a mix with device fields, naming file, line and field",
        arguments: [
            (
                "expect:\n  - match: { channel: \"not base64\" }",
                "test.yaml:2:23: expect[0].match.channel: channel must be a channel id in base64 (as `mock-apns "
                    + "channels create` prints it), got 'not base64'"
            ),
            (
                "expect:\n  - match: { operation: craete }",
                "test.yaml:2:25: expect[0].match.operation: operation must be one of: create, read, delete, list "
                    + "(a channel operation); got 'craete'"
            ),
            (
                "expect:\n  - match: { channel: dGVzdA==, topic: com.example.app }",
                "test.yaml:2:40: expect[0].match.topic: topic is a device push's; a match with channel or "
                    + "operation matches broadcasts and channel operations, which have none"
            ),
            (
                "expect:\n  - match: { operation: create, device: { outcome: applied } }",
                "test.yaml:2:41: expect[0].match.device: a channel operation reaches no phone: device: goes with "
                    + "channel: alone (a broadcast's fan-out)"
            ),
            (
                "rules:\n  - match: { channel: dGVzdA== }\n    respond: { status: 200 }",
                "test.yaml:2:23: rules[0].match.channel: a rule answers device pushes; channel and operation are "
                    + "for an expect: entry's match (broadcasts and channel operations)"
            ),
            (
                "expect:\n  - match: { operation: create }\n    answered: 202",
                "test.yaml:3:15: expect[0].answered: APNs answers 200 (201 and 204 for channel operations) or an "
                    + "error status (4xx, 5xx); got 202"
            ),
        ])
    func loaderErrors(yaml: String, message: String) {
        #expect(loadError(yaml).hasPrefix(message), "\(loadError(yaml))")
    }

    @Test("an expect: entry with channel: counts broadcasts to it; with operation: the channel operations")
    func verifyOnRecords() async throws {
        let yaml = """
            channels:
              - { id: "\(Self.declared)", app: com.example.app }
            expect:
              - name: one channel created
                match: { operation: create }
                answered: 201
              - name: three broadcasts to the channel
                match: { channel: "\(Self.declared)" }
                count: 3
              - name: every broadcast accepted
                match: { channel: "\(Self.declared)" }
                count: 3
                answered: 200
              - name: nothing to the other channel
                match: { channel: b3RoZXI= }
                count: 0
            """
        let scenario = try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
        try await withTestServer(scenario: scenario) { server in
            _ = try await ChannelManagementEndToEndTests.create(server, policy: 0)
            await #expect(try Self.broadcast(server, channel: Self.declared) == 200)
            await #expect(try Self.broadcast(server, channel: Self.declared) == 200)
            let later = String(Int(Date().timeIntervalSince1970) + 3600)
            await #expect(try Self.broadcast(server, channel: Self.declared, expiration: later) == 400)
            let report = scenario.verify(server.journal.records(), startedAt: .distantPast)
            let summaries = report.items.map { "\($0.name): \($0.passed) \($0.summary) \($0.details)" }
            #expect(report.items.map(\.passed) == [true, true, false, true], "\(summaries)")
            let refused = report.items[2].details.joined(separator: "\n")
            #expect(report.items[2].summary == "1 of 3 pushes answered otherwise than 200", "\(summaries)")
            #expect(refused.contains("was answered 400 BadExpirationDate, expected 200"), "\(refused)")
        }
    }

    @Test("a missed channel: expectation names the nearest broadcast and its channel")
    func nearestMiss() async throws {
        let yaml = """
            channels:
              - { id: "\(Self.declared)", app: com.example.app }
            expect:
              - match: { channel: b3RoZXI= }
            """
        let scenario = try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
        try await withTestServer(scenario: scenario) { server in
            await #expect(try Self.broadcast(server, channel: Self.declared) == 200)
            let item = try #require(scenario.verify(server.journal.records(), startedAt: .distantPast).items.first)
            #expect(!item.passed)
            let text = item.details.joined(separator: "\n")
            #expect(text.contains("matching kind:broadcast channel:b3RoZXI="), "\(text)")
            #expect(text.contains("channel was \(Self.declared)"), "\(text)")
        }
    }

    @Test("the search text takes channel: and operation:, and refuses a bad value with the word's place")
    func searchWords() async throws {
        let yaml = "channels:\n  - { id: \"\(Self.declared)\", app: com.example.app }"
        let scenario = try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
        try await withTestServer(scenario: scenario) { server in
            _ = try await ChannelManagementEndToEndTests.create(server, policy: 0)
            await #expect(try Self.broadcast(server, channel: Self.declared) == 200)
            let records = server.journal.records()
            func matching(_ text: String) throws -> [String] {
                let query = JournalQuery(search: try RecordSearch(text))
                return records.filter(query.matches).map(\.kind.name)
            }
            #expect(try matching("channel:\(Self.declared)") == ["broadcast"])
            #expect(try matching("operation:create") == ["channel"])
            #expect(try matching("kind:broadcast status:200") == ["broadcast"])
            #expect(try matching("channel:b3RoZXI=").isEmpty)
            var query = JournalQuery()
            try query.setFilter("channel", to: Self.declared)
            #expect(records.filter(query.matches).count == 1)
            #expect(query.parameters.map(\.name) == ["channel"])
            #expect(throws: RecordSearch.Failure.self) { try RecordSearch("channel:abc") }
            #expect(throws: InputError.self) { try query.setFilter("operation", to: "craete") }
        }
    }

    @Test("expectBroadcast and expectChannelOperation pass on what arrived, and a miss is recorded at the caller")
    func swiftHelpers() async throws {
        try await withMockAPNs { server in
            let created = try await ChannelManagementEndToEndTests.create(server.server, policy: 0)
            let id = try #require(created.headers["apns-channel-id"])
            await #expect(try Self.broadcast(server.server, channel: id) == 200)

            let broadcasts = try await server.expectBroadcast(channel: id, matching: JournalQuery(status: 200))
            #expect(broadcasts.first?.otherKindMember("channel") == .string(id))
            let creates = try await server.expectChannelOperation(.create)
            #expect(creates.first?.otherKindMember("channel") == .string(id))
            try await server.expectChannelOperation(.create, channel: id, matching: JournalQuery(status: 201))

            let failure = await TestingLibraryTests.failure {
                try await server.expectBroadcast(channel: "b3RoZXI=", timeout: .milliseconds(100))
            }
            let message = try #require(failure?.message)
            #expect(message.contains("channel:b3RoZXI="), "\(message)")
            #expect(message.contains("channel was \(id)"), "\(message)")
        }
    }
}
