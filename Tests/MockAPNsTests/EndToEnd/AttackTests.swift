import Foundation
import Testing
@testable import MockAPNs

/// Hostile and broken clients (`Tests/clients/attacks.py`) against a real `mock-apns serve` process. For every
/// attack the invariant holds: the server keeps running, its memory stays bounded (RSS sampled from `/proc`
/// before, during and after), a probe connection keeps being answered at normal latency meanwhile, and the
/// journal holds exactly one record per answered request (matched per connection by the client's port and per
/// stream with the status the attacker saw).
///
/// Bounds are generous for a loaded 2-core CI machine; the README's "Reliability" table has the figures measured.
@Suite(
    "Attacks", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct AttackTests {
    /// The slowest probe answer allowed during an attack, and its 99th percentile, in milliseconds.
    static let probeMaxMilliseconds = 2_000.0
    static let probeP99Milliseconds = 500.0

    /// The invariant, except the journal: alive, memory grown by at most `growthMiB` at the peak, the probe
    /// answered on time throughout, and a push after the attack answered 200.
    static func expectSurvived(
        _ trial: Attacker.Trial, _ server: ServeProcess, growthMiB: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let figures = trial.figures
        print("attack figures (\(trial.summary["attack"] ?? "?")): \(figures)")
        #expect(server.process.isRunning, "the server died: \(figures)", sourceLocation: sourceLocation)
        #expect(trial.summary["error"] is NSNull, "the attacker failed: \(figures)", sourceLocation: sourceLocation)
        #expect(
            trial.rssPeak - trial.rssBefore <= growthMiB * 1024, "memory grew too much: \(figures)",
            sourceLocation: sourceLocation)
        let probe = trial.probe
        #expect(
            (probe["answered"] as? Int ?? 0) > 0, "the probe got no answer: \(figures)", sourceLocation: sourceLocation)
        #expect(probe["failures"] as? Int == 0, "the probe lost pushes: \(figures)", sourceLocation: sourceLocation)
        #expect(
            (probe["maxms"] as? Double ?? .infinity) <= probeMaxMilliseconds, "the probe waited: \(figures)",
            sourceLocation: sourceLocation)
        #expect(
            (probe["p99ms"] as? Double ?? .infinity) <= probeP99Milliseconds, "the probe waited: \(figures)",
            sourceLocation: sourceLocation)
        guard server.process.isRunning else { return }
        let response = try await Curl.request(
            port: server.port, path: "/3/device/\(EndToEndTests.device)", headers: EndToEndTests.pushHeaders(),
            body: EndToEndTests.alert)
        #expect(response.status == 200, "a push after the attack: \(figures)", sourceLocation: sourceLocation)
    }

    /// Exactly one record per answered request, with the status the client saw; a stream the client did not see
    /// answered is recorded at most once, and only if the client reset it (a whole request given up on) or the
    /// server ended the connection before answering; and no record for a stream above the last-stream-id of a
    /// GOAWAY the connection received.
    static func expectJournalAgrees(
        _ trial: Attacker.Trial, _ server: ServeProcess, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let records = Dictionary(grouping: try await server.records(from: trial.journalMark), by: \.port)
        var doubled = 0
        var missing = 0
        var wrongStatus = 0
        var unexplained = 0
        var beyondGoaway = 0
        for connection in trial.connections + trial.probeConnections {
            let byStream = Dictionary(grouping: records[connection.port] ?? [], by: \.stream)
            for (stream, status) in connection.answers {
                let found = byStream[stream] ?? []
                if found.isEmpty { missing += 1 }
                if found.count > 1 { doubled += 1 }
                if let record = found.first, record.status != status { wrongStatus += 1 }
            }
            for (stream, found) in byStream where connection.answers[stream] == nil {
                if found.count > 1 { doubled += 1 }
                if !connection.resetsSent.contains(stream) && !connection.endedByServer { unexplained += 1 }
            }
            if let last = connection.goawayLastStream {
                beyondGoaway += byStream.keys.filter { $0 > last }.count
            }
        }
        let answered = (trial.connections + trial.probeConnections).reduce(0) { $0 + $1.answers.count }
        let context = "answered \(answered), records \(records.values.reduce(0) { $0 + $1.count })"
        #expect(missing == 0, "\(missing) answered streams have no record; \(context)", sourceLocation: sourceLocation)
        #expect(doubled == 0, "\(doubled) streams recorded twice; \(context)", sourceLocation: sourceLocation)
        #expect(
            wrongStatus == 0, "\(wrongStatus) records disagree with the answer; \(context)",
            sourceLocation: sourceLocation)
        #expect(
            unexplained == 0, "\(unexplained) records for streams neither answered nor reset; \(context)",
            sourceLocation: sourceLocation)
        #expect(
            beyondGoaway == 0, "\(beyondGoaway) records above a GOAWAY's last-stream-id; \(context)",
            sourceLocation: sourceLocation)
    }

    /// A few connections first, so that the descriptors the server opens once, on its first connections, are in
    /// the baseline a leak is measured against.
    static func warmUp(_ server: ServeProcess) async throws {
        _ = try await Attacker.run("churn", against: server, ["--count", "200", "--time", "10"], probe: false)
    }

    @Test("rapid reset, HEADERS then RST_STREAM (CVE-2023-44487): 20,000 streams, nothing recorded, memory flat")
    func rapidReset() async throws {
        try await withServeProcess { server in
            let trial = try await Attacker.run("rapid-reset", against: server, ["--count", "20000", "--time", "30"])
            #expect(trial.result["streams"] as? Int == 20_000, "\(trial.figures)")
            try await Self.expectJournalAgrees(trial, server)
            // Only the warm-up push of each connection was a whole request.
            let answered = trial.connections.reduce(0) { $0 + $1.answers.count }
            await #expect(try server.records(from: trial.journalMark).count == answered + trial.probeAnswered)
            try await Self.expectSurvived(trial, server, growthMiB: 64)
        }
    }

    @Test("rapid reset of whole requests: 20,000 streams, each answered one recorded once, none beyond GOAWAY")
    func rapidResetCompleteRequests() async throws {
        try await withServeProcess { server in
            let trial = try await Attacker.run(
                "rapid-reset", against: server, ["--count", "20000", "--time", "30", "--complete"])
            #expect(trial.result["streams"] as? Int == 20_000, "\(trial.figures)")
            try await Self.expectJournalAgrees(trial, server)
            try await Self.expectSurvived(trial, server, growthMiB: 160)
        }
    }

    @Test("CONTINUATION flood without END_HEADERS (CVE-2024-27316 class): memory flat, connections closed")
    func continuationFlood() async throws {
        try await withServeProcess { server in
            let trial = try await Attacker.run(
                "continuation-flood", against: server, ["--count", "1000000", "--time", "4"])
            try await Self.expectJournalAgrees(trial, server)
            try await Self.expectSurvived(trial, server, growthMiB: 128)
            // Every connection the attack finished ends: no header block grows without limit.
            #expect(trial.connections.count > 1, "\(trial.figures)")
            #expect(trial.connections.dropLast().allSatisfy { $0.endedByServer }, "\(trial.figures)")
        }
    }

    @Test("HPACK bomb (a 4 KiB table entry referenced 16,000 times) and a 1 MB header block: refused, memory flat")
    func hpackBomb() async throws {
        try await withServeProcess { server in
            let trial = try await Attacker.run("hpack-bomb", against: server, ["--count", "200", "--time", "10"])
            try await Self.expectJournalAgrees(trial, server)
            try await Self.expectSurvived(trial, server, growthMiB: 64)
            let connection = try #require(trial.connections.first)
            #expect(connection.answers.values.allSatisfy { $0 == 200 } && connection.answers.count == 1,
                    "only the warm-up push is answered: \(connection.answers)")
        }
    }

    @Test(
        "floods of SETTINGS, PING, WINDOW_UPDATE, PRIORITY and empty DATA frames: memory flat, others answered",
        arguments: ["settings", "ping", "window-update", "priority", "empty-data"])
    func flood(kind: String) async throws {
        try await withServeProcess { server in
            let trial = try await Attacker.run(
                "flood", against: server, ["--kind", kind, "--count", "5000000", "--time", "3", "--batch", "500"])
            try await Self.expectJournalAgrees(trial, server)
            try await Self.expectSurvived(trial, server, growthMiB: 64)
        }
    }

    @Test("a client that never reads (zero window, 4 KiB receive buffer) while pushing 30,000: all answered later")
    func neverReads() async throws {
        try await withServeProcess { server in
            let trial = try await Attacker.run(
                "no-read", against: server, ["--count", "30000", "--time", "20", "--stall", "3"])
            try await Self.expectJournalAgrees(trial, server)
            try await Self.expectSurvived(trial, server, growthMiB: 160)
            let connection = try #require(trial.connections.first)
            let requests = trial.result["requests"] as? Int ?? 0
            #expect(
                connection.answers.count == requests + 1,
                "every push answered once reading resumes: \(trial.figures)")
        }
    }

    @Test("connection churn: connect, push, close for 20 s (half of them with an RST): no descriptor or memory leak")
    func churn() async throws {
        try await withServeProcess { server in
            try await Self.warmUp(server)
            let trial = try await Attacker.run(
                "churn", against: server, ["--count", "50000", "--time", "20"], settle: 5)
            let cycles = trial.result["cycles"] as? Int ?? 0
            let answered = trial.result["answered"] as? Int ?? -1
            #expect(cycles >= 1_000, "\(trial.figures)")
            #expect(answered == cycles, "\(trial.figures)")
            #expect(trial.descriptorsAfter <= trial.descriptorsBefore, "descriptors leaked: \(trial.figures)")
            // Ports repeat over thousands of connections: compare totals.
            let records = try await server.records(from: trial.journalMark)
            #expect(records.count == answered + trial.probeAnswered, "\(trial.figures)")
            #expect(records.allSatisfy { $0.status == 200 })
            try await Self.expectSurvived(trial, server, growthMiB: 160)
        }
    }
}

extension Attacker.Trial {
    /// Pushes the probe saw answered.
    var probeAnswered: Int { probeConnections.reduce(0) { $0 + $1.answers.count } }
}
