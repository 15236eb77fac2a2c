import Foundation
import MockAPNsClient
import MockAPNsTesting
import Testing

@testable import MockAPNs

/// The second implementation of `MockAPNsControl`: the Swift HTTP client against a real control API.
@Suite("Control API with the Swift client", .serialized)
struct ControlClientTests {
    static let device = EndToEndTests.device
    static let other = ControlAPITests.other

    @Test("resets, waits, queries and reads records over HTTP as in-process")
    func queryAndWait() async throws {
        try await withControlServer { server, control in
            let client = MockAPNsControlClient(url: control.url)
            #expect(await client.isHealthy())
            try await sendPush(server)
            try await client.reset()
            #expect(try await client.records(JournalQuery()).isEmpty)

            let waiting = Task {
                try await client.waitForRecords(JournalQuery(token: Self.device), count: 1, timeout: .seconds(5))
            }
            try await Task.sleep(for: .milliseconds(200))
            try await sendPush(server)
            let result = try await waiting.value
            #expect(result.satisfied)
            #expect(result.records.first?.deviceToken == Self.device)
            #expect(result.records.first?.payloadJSON?.value(atPath: "aps.alert.title") == "Order ready")

            try await sendPush(server, to: Self.other, topic: "com.example.other")
            let filtered = try await client.records(JournalQuery(topic: "com.example.other"))
            #expect(filtered.map(\.sequence) == [3])
            let local = try await server.records(JournalQuery(topic: "com.example.other"))
            #expect(filtered.map(\.json) == local.map(\.json))
            #expect(try await client.record(sequence: 3)?.deviceToken == Self.other)
            #expect(try await client.record(sequence: 42) == nil)

            let missed = try await client.waitForRecords(
                JournalQuery(token: Self.other, topic: "com.example.app"), count: 1, timeout: .milliseconds(200))
            #expect(!missed.satisfied)
            #expect(
                missed.nearMisses.map(\.summary) == [
                    "#3 differs in topic: expected com.example.app, got com.example.other",
                    "#2 differs in token: expected \(Self.other), got \(Self.device)",
                ])

            let stats = try await client.stats()
            #expect(stats.records == 2)
            #expect(stats.byTopic["com.example.other"] == 1)
        }
    }

    @Test("changes the world over HTTP: scenario, devices, rules; refusals come back as the same errors")
    func steerTheWorld() async throws {
        try await withControlServer { server, control in
            let client = MockAPNsControlClient(url: control.url)
            do {
                _ = try await client.loadScenario(yaml: "name: x\nenvironment: moon\n")
                Issue.record("an invalid scenario was accepted")
            } catch let error as ScenarioError {
                #expect(error.line == 2)
                #expect(error.field == "environment")
            }
            #expect(try await client.scenario().name == "default")

            try await client.addDevices([Device(token: Self.device, bundleID: "com.example.app")])
            let device = try await client.unregisterDevice(token: Self.device)
            #expect(device.unregisteredAt != nil)
            #expect(try await sendPush(server) == 410)
            try await client.removeDevice(token: Self.device)
            await #expect(throws: MockAPNsControlError.self) { try await client.removeDevice(token: Self.device) }

            try await client.addRules([
                ScriptedRule(
                    name: "busy", match: RuleMatch(topic: "com.example.app"),
                    action: .respond(status: 429, reason: "TooManyRequests", timestamp: nil, delay: .milliseconds(10)),
                    times: 1)
            ])
            #expect(try await sendPush(server) == 429)
            #expect(try await sendPush(server) == 200)
            let counts = try await client.ruleCounts()
            #expect(counts.map { [$0.rule.name, "\($0.matched)", "\($0.applied)"] } == [["busy", "2", "1"]])
            #expect(counts.first?.rule.times == 1, "the rule reads back as the server loaded it")
            #expect(try await server.control.ruleCounts().map(\.applied) == [1])
            let rules = try await client.scenario().document["rules"]?.arrayValue ?? []
            #expect(rules.first?["respond"]?["delay"] == "10ms")
            try await client.clearRules()
            #expect(server.engine.rules.rules.isEmpty)
        }
    }

    @Test("streams records as they arrive")
    func stream() async throws {
        try await withControlServer { server, control in
            let client = MockAPNsControlClient(url: control.url)
            try await sendPush(server)
            let first = Task { () -> JournalRecord? in
                for try await record in client.streamRecords(JournalQuery(since: 0)) where record.sequence == 2 {
                    return record
                }
                return nil
            }
            try await Task.sleep(for: .milliseconds(200))
            try await sendPush(server, to: Self.other)
            let record = try await first.value
            #expect(record?.deviceToken == Self.other)
        }
    }

    @Test("sends the bearer token and reports a wrong one with the server's message")
    func token() async throws {
        try await withControlServer(token: "t0ken") { _, control in
            #expect(try await MockAPNsControlClient(url: control.url, token: "t0ken").records(JournalQuery()).isEmpty)
            do {
                _ = try await MockAPNsControlClient(url: control.url).stats()
                Issue.record("no token was accepted")
            } catch let error as MockAPNsControlError {
                #expect(error.status == 401)
                #expect(error.message.contains("Authorization: Bearer"))
            }
        }
    }

    @Test("the assertion helpers work over HTTP too")
    func expectOverHTTP() async throws {
        try await withControlServer { server, control in
            let client = MockAPNsControlClient(url: control.url)
            try await sendPush(server)
            try await client.expectPush(to: Self.device, count: 1, timeout: .seconds(1))
            try await client.expectNoPush(to: Self.other)
        }
    }
}
