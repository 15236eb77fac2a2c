import Foundation
import Testing

@testable import MockAPNs

/// The later events of pushes in the journal (issue 23 item 4, Tests): many phones changed while pushes arrive lose
/// no event, the journal file read back gives every push with its events in order, and `expect:` sees them.
@Suite("phone: delivery events in the journal", .serialized)
struct PhoneDeliveryJournalTests {
    static let t = PhonePush.token

    /// A 64-digit token for phone `n` of many.
    static func manyToken(_ n: Int) -> String {
        String(format: "%060x", n) + "beef"
    }

    /// One alert with body `text` to each of `tokens`, by one curl multiplexing them over HTTP/2 (100 at a time);
    /// answers the statuses.
    static func pushAll(_ server: MockAPNsServer, _ tokens: [String], _ text: String) async throws -> [Int] {
        let port = server.port
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("urls-\(UUID()).txt")
        let lines = tokens.map { "url = \"https://localhost:\(port)/3/device/\($0)\"\noutput = \"/dev/null\"" }
        try Data(lines.joined(separator: "\n").utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        var arguments = ["-sS", "--http2", "--cacert", Curl.caFile, "-Z", "--parallel-max", "100"]
        arguments += ["-w", "%{http_code}\n"]
        for (name, value) in EndToEndTests.pushHeaders().sorted(by: { $0.key < $1.key }) {
            arguments += ["-H", "\(name): \(value)"]
        }
        arguments += ["--data-binary", #"{"aps":{"alert":"\#(text)"}}"#, "-K", config.path]
        let sent = arguments
        let output = try await offPool { () throws -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = sent
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        return output.split(separator: "\n").compactMap { Int($0) }
    }

    /// Takes each phone of `tokens` online or offline, 16 changes at a time: concurrent, without queueing 1,000
    /// tasks at once on the test process's two-thread pool, which the other suites' control APIs share (they timed
    /// out behind them).
    static func changeAll(_ tokens: [String], online: Bool, on server: MockAPNsServer) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, token) in tokens.enumerated() {
                if index >= 16 { try await group.next() }
                group.addTask { _ = try await server.updatePhone(id: token, .object([("online", .bool(online))])) }
            }
            try await group.waitForAll()
        }
    }

    @Test("1,000 phones changed concurrently while pushes arrive: every push, change and event recorded")
    func thousandPhones() async throws {
        let tokens = (0..<1000).map(Self.manyToken)
        try await withTestServer(scenario: try PhonePush.scenario("devices: []\n")) { server in
            try await Self.changeAll(tokens, online: false, on: server)
            #expect(try await Self.pushAll(server, tokens, "First") == Array(repeating: 200, count: 1000))
            // The phones come back online while the second round arrives.
            async let second = Self.pushAll(server, tokens, "Second")
            try await Self.changeAll(tokens, online: true, on: server)
            #expect(try await second == Array(repeating: 200, count: 1000))
            let phones = try await server.phones()
            #expect(phones.allSatisfy { $0.apps.allSatisfy(\.stored.isEmpty) }, "nothing is left in storage")

            let records = server.journal.records()
            #expect(records.count { $0.kind == .phone } == 2000)
            let pushes = records.filter { $0.kind == .devicePush }
            #expect(pushes.count == 2000)
            let stored = Set(pushes.filter { $0.device?.kind == .stored }.map(\.sequence))
            #expect(stored.count >= 1000, "every first push was stored")
            let events = records.compactMap(\.deviceEvent)
            #expect(events.count == records.count { $0.kind == .deviceEvent }, "every event names its push")
            var ends: [UInt64: Int] = [:]
            for event in events where event.event.kind == .delivered || event.event.kind == .replaced {
                ends[event.push, default: 0] += 1
            }
            #expect(Set(ends.keys) == stored, "each stored push was delivered or replaced")
            #expect(ends.values.allSatisfy { $0 == 1 }, "once")
            let position = Dictionary(uniqueKeysWithValues: records.enumerated().map { ($1.sequence, $0) })
            #expect(events.allSatisfy { (position[$0.push] ?? .max) < (position[$0.sequence] ?? -1) })
            let delivered = events.filter { $0.event.kind == .delivered }
            #expect(delivered.allSatisfy { $0.device?.kind == .shown })
        }
    }

    @Test("the journal file read back gives every push with its events in order, and expect: sees the events")
    func journalFileAndExpectations() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("delivery-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let yaml = """
            phones:
              alice: { online: false }
            devices:
              - { token: \(Self.t(80)), app: com.example.app, phone: alice }
            expect:
              - name: the last update was shown in the end
                match: { payload: { aps.alert: Update 3 }, device: { outcome: shown, rule: alert-shown } }
              - name: two were replaced in storage
                match: { device: { outcome: replaced, rule: storage-replaced } }
                count: 2
              - name: nothing is still stored
                match: { device: { outcome: stored, final: true } }
                count: 0
            """
        try await withTestServer(scenario: try PhonePush.scenario(yaml), journalFile: file.path) { server in
            for n in 1...3 {
                _ = try await PhonePush.send(server, to: Self.t(80), #"{"aps":{"alert":"Update \#(n)"}}"#)
            }
            let early = server.verify(startedAt: nil)
            #expect(early.items.first { $0.name == "nothing is still stored" }?.passed == false)
            _ = try await server.updatePhone(id: "alice", .object([("online", .bool(true))]))
            let report = server.verify(startedAt: nil)
            for item in report.items { #expect(item.passed, "\(item.name): \(item.details)") }
        }
        var reader = JournalFileReader(path: file.path, mode: .strict)
        var read: [JournalRecord] = []
        try reader.read { record, _ in read.append(record) }
        let kinds = ["push", "push", "device-event", "push", "device-event", "phone", "device-event"]
        #expect(read.map(\.kind.name) == kinds)
        let events = read.compactMap(\.deviceEvent)
        let summaries = events.map {
            "\($0.push) \($0.event.kind.rawValue) \($0.event.related.map(String.init) ?? "-")"
        }
        #expect(summaries == ["1 replaced 2", "2 replaced 4", "4 delivered -"])
        #expect(events.last?.device?.kind == .shown)
        #expect(read.map(\.sequence) == Array(1...7))
    }

    @Test("expect: notificationCenter counts what the phone lists at the end: collapses and deliveries from storage")
    func notificationCenterExpectations() async throws {
        let yaml = """
            phones:
              alice: { online: false }
            devices:
              - { token: \(Self.t(80)), app: com.example.app, phone: alice }
            expect:
              - name: one order notification, updated in place
                notificationCenter: { phone: alice, app: com.example.app, title: Order 42 }
                count: 1
              - name: the update shows
                notificationCenter: { token: \(Self.t(80).uppercased()), body: On its way, threadID: orders }
              - name: nothing in another thread
                notificationCenter: { phone: alice, threadID: other }
                count: 0
            """
        try await withTestServer(scenario: try PhonePush.scenario(yaml)) { server in
            let order = ["apns-collapse-id": "order-42"]
            for body in ["Preparing", "On its way"] {
                let payload = #"{"aps":{"alert":{"title":"Order 42","body":"\#(body)"},"thread-id":"orders"}}"#
                _ = try await PhonePush.send(server, to: Self.t(80), payload, extra: order)
            }
            let offline = Dictionary(uniqueKeysWithValues: server.verify(startedAt: nil).items.map { ($0.name, $0) })
            let update = try #require(offline["the update shows"])
            #expect(!update.passed && update.details.last == "The list is empty.", "\(update.details)")
            #expect(offline["nothing in another thread"]?.passed == true)
            _ = try await server.updatePhone(id: "alice", .object([("online", .bool(true))]))
            let report = server.verify(startedAt: nil)
            for item in report.items { #expect(item.passed, "\(item.name): \(item.details)") }
            #expect(report.items.first?.records == [2], "the second push, delivered from storage")
        }
        let refused = ScenarioText.error(
            "expect:\n  - { notificationCenter: { phone: a }, match: { topic: x } }\n", file: "e.yaml")
        #expect(refused?.message.contains("notificationCenter checks what the phone lists") == true)
        let nobody = ScenarioText.error("expect:\n  - { notificationCenter: { title: x } }\n", file: "e.yaml")
        #expect(nobody?.message.hasPrefix("give the phone") == true)
        let loaded = try ScenarioText.load(
            "expect:\n  - { name: n, notificationCenter: { phone: a, title: T }, count: 2 }\n")
        #expect(
            loaded.expectations[0].scenarioJSON
                == .object([
                    ("name", "n"), ("notificationCenter", .object([("phone", "a"), ("title", "T")])), ("count", 2),
                ]))
    }
}
