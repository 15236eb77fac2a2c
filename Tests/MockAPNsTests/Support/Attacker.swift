import Foundation
import Testing

/// Runs one attack of `Tests/clients/attacks.py` against a `ServeProcess` and measures the server meanwhile.
enum Attacker {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The attacker's view of one connection: its local port, the streams it saw answered, the GOAWAY it got.
    struct Connection {
        var port: Int
        var answers: [Int: Int]
        var resetsSent: Set<Int>
        var goawayLastStream: Int?
        var goawayError: String?
        var received: [String: Int]
        /// The server ended the connection (GOAWAY, close or reset) rather than the client.
        var endedByServer: Bool
    }

    /// One attack run: what the attack did and what the server's process did meanwhile (memory in KiB).
    struct Trial {
        var summary: [String: Any]
        var connections: [Connection]
        var probeConnections: [Connection]
        var rssBefore: Int
        var rssPeak: Int
        var rssAfter: Int
        var descriptorsBefore: Int
        var descriptorsAfter: Int
        var journalMark: Int

        var result: [String: Any] { summary["result"] as? [String: Any] ?? [:] }
        var probe: [String: Any] { summary["probe"] as? [String: Any] ?? [:] }
        /// The figures for the README and for a failing test's message.
        var figures: String {
            let probeText = ["answered", "failures", "p50ms", "p99ms", "maxms"].map { "\($0)=\(probe[$0] ?? "-")" }
            return "RSS \(rssBefore / 1024)→\(rssPeak / 1024)→\(rssAfter / 1024) MiB, fds \(descriptorsBefore)→"
                + "\(descriptorsAfter), probe \(probeText.joined(separator: " ")), result \(result), "
                + "seconds \(summary["seconds"] ?? "-"), error \(summary["error"] ?? "-")"
        }
    }

    static var script: String { AuthTestFiles.packageRoot.appendingPathComponent("Tests/clients/attacks.py").path }

    /// Runs `attacks.py ATTACK --port … --probe ARGUMENTS`, sampling the server's RSS every 50 ms; waits up to
    /// `settle` seconds after it for the memory and descriptors to come back down.
    static func run(
        _ attack: String, against server: ServeProcess, _ arguments: [String] = [], probe: Bool = true,
        settle: TimeInterval = 2, timeout: TimeInterval = 120
    ) async throws -> Trial {
        guard ThirdPartyClients.venvExists else {
            throw Failure(description: "\(ThirdPartyClients.venvPython.path) is missing: run Tests/clients/setup.sh")
        }
        let mark = server.journalLineCount()
        let before = server.memory().rss
        let descriptorsBefore = server.descriptorCount()
        var command = [script, attack, "--port", String(server.port)] + arguments
        if let cleartext = server.cleartextPort { command += ["--cleartext-port", String(cleartext)] }
        if probe { command.append("--probe") }
        let (status, output, errors, peak) = try await runSampling(command, server: server, timeout: timeout)
        guard status == 0, let line = output.split(separator: "\n").last,
            let summary = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw Failure(description: "attacks.py \(attack) exited \(status)\n\(output.suffix(2000))\n\(errors)") }
        let deadline = Date().addingTimeInterval(settle)
        while Date() < deadline, server.descriptorCount() > descriptorsBefore {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(200))
        let probeConnections = ((summary["probe"] as? [String: Any])?["connections"] as? [[String: Any]]) ?? []
        return Trial(
            summary: summary, connections: ((summary["connections"] as? [[String: Any]]) ?? []).map(connection),
            probeConnections: probeConnections.map(connection), rssBefore: before, rssPeak: max(peak, before),
            rssAfter: server.memory().rss, descriptorsBefore: descriptorsBefore,
            descriptorsAfter: server.descriptorCount(), journalMark: mark)
    }

    private static func connection(_ object: [String: Any]) -> Connection {
        let answers = (object["answers"] as? [String: Int] ?? [:]).reduce(into: [Int: Int]()) {
            if let stream = Int($1.key) { $0[stream] = $1.value }
        }
        let goaway = object["goaway"] as? [String: Any]
        return Connection(
            port: object["port"] as? Int ?? -1, answers: answers,
            resetsSent: Set(object["resetsSent"] as? [Int] ?? []), goawayLastStream: goaway?["lastStreamID"] as? Int,
            goawayError: goaway?["error"] as? String, received: object["received"] as? [String: Int] ?? [:],
            endedByServer: ["goaway", "eof", "reset", "tls-error"].contains(object["end"] as? String ?? ""))
    }

    /// Runs the venv's python off the cooperative pool, killing it after `timeout`; the peak RSS seen meanwhile.
    private static func runSampling(
        _ arguments: [String], server: ServeProcess, timeout: TimeInterval
    ) async throws -> (Int32, String, String, Int) {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        return try await offPool { [environment] in
            let peak = PeakSampler(server)
            let result: (status: Int32, output: String, errors: String)
            do {
                result = try Subprocess.runBlocking(
                    ThirdPartyClients.venvPython.path, arguments, in: AuthTestFiles.packageRoot,
                    environment: environment, timeout: timeout)
            } catch {
                _ = peak.stop()
                throw error
            }
            return (result.status, result.output, result.errors, peak.stop())
        }
    }
}

/// Samples a process's RSS every 50 ms on its own thread until stopped; keeps the largest.
private final class PeakSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(_ server: ServeProcess) {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let rss = server.memory().rss
                lock.withLock { peak = max(peak, rss) }
                Thread.sleep(forTimeInterval: 0.05)
            }
            done.signal()
        }
    }

    func stop() -> Int {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { peak }
    }
}
