import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real `mock-apns serve` process, as a user starts it: its ports from the banner, its memory and descriptors
/// from `/proc`, its records from the JSONL journal. Attack tests measure the process, not an in-test server.
/// Sendable: every stored property is a constant, and the methods only read `/proc` and files.
final class ServeProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One line of the JSONL journal, reduced to what the invariant needs.
    struct Record {
        /// The client's local port (from `remoteAddress`).
        var port: Int
        var stream: Int
        /// The status sent, or nil for a request recorded without an answer.
        var status: Int?
    }

    let process: Process
    let port: Int
    let cleartextPort: Int?
    let journalPath: String
    private let scenarioPath: String?

    /// Starts `mock-apns serve` on free ports with a JSONL journal (and `scenarioYAML` as its scenario file) and
    /// waits for its banner's "ready".
    init(scenarioYAML: String? = nil, arguments: [String] = []) throws {
        let directory = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        journalPath = directory.appendingPathComponent("attack-\(id).jsonl").path
        var all = [
            "serve", "--port", "0", "--cleartext-port", "0", "--control-port", "0", "--journal", journalPath,
            "--log-level", "error",
        ]
        if let scenarioYAML {
            let path = directory.appendingPathComponent("attack-\(id).yaml").path
            try scenarioYAML.write(toFile: path, atomically: true, encoding: .utf8)
            scenarioPath = path
            all += ["--scenario", path]
        } else {
            scenarioPath = nil
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = all + arguments
        process.currentDirectoryURL = AuthTestFiles.packageRoot
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var banner = ""
        let deadline = Date().addingTimeInterval(30)
        while !banner.contains("\nready"), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        func portAfter(_ prefix: String) -> Int? {
            guard let range = banner.range(of: prefix) else { return nil }
            return Int(banner[range.upperBound...].prefix { $0.isNumber })
        }
        guard banner.contains("\nready"), let port = portAfter("https://127.0.0.1:") else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure(description: "mock-apns serve did not start:\n\(banner)\n\(errors)")
        }
        self.port = port
        cleartextPort = portAfter("http://127.0.0.1:")
        // Nothing reads the pipes from here on: at --log-level error the server writes next to nothing.
    }

    /// The `mock-apns` built with the tests, or `MOCK_APNS_ATTACK_EXECUTABLE` (to attack a release build).
    static var executable: String {
        ProcessInfo.processInfo.environment["MOCK_APNS_ATTACK_EXECUTABLE"] ?? CLITests.executable
    }

    /// The process id, for `/proc`.
    var pid: Int32 { process.processIdentifier }

    /// Resident and peak resident memory in KiB (`VmRSS`, `VmHWM`).
    func memory() -> (rss: Int, peak: Int) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
        func value(_ key: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
            return Int(line.split(separator: " ").compactMap { Int($0) }.first ?? 0)
        }
        return (value("VmRSS:"), value("VmHWM:"))
    }

    /// Open file descriptors (entries of `/proc/PID/fd`).
    func descriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// The journal's lines, once two reads 300 ms apart agree (the file is appended off the event loop).
    func records(from firstLine: Int = 0) throws -> [Record] {
        var previous = -1
        var text = ""
        for _ in 0..<50 {
            text = (try? String(contentsOfFile: journalPath, encoding: .utf8)) ?? ""
            if text.utf8.count == previous { break }
            previous = text.utf8.count
            Thread.sleep(forTimeInterval: 0.3)
        }
        return try text.split(separator: "\n").dropFirst(firstLine).map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let address = object["remoteAddress"] as? String, let stream = object["stream"] as? Int,
                let port = address.split(separator: ":").last.flatMap({ Int($0) })
            else { throw Failure(description: "unreadable journal line: \(line.prefix(200))") }
            let status = (object["response"] as? [String: Any])?["status"] as? Int
            return Record(port: port, stream: stream, status: status)
        }
    }

    /// Lines in the journal now (a mark to count from).
    func journalLineCount() -> Int {
        ((try? String(contentsOfFile: journalPath, encoding: .utf8)) ?? "").utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    }

    /// SIGTERM, then SIGKILL after 5 s; removes the journal and scenario files.
    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(pid, SIGKILL) }
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: journalPath)
        if let scenarioPath { try? FileManager.default.removeItem(atPath: scenarioPath) }
    }
}

/// Starts a `mock-apns serve` process for one test and always stops it.
func withServeProcess<T>(
    scenarioYAML: String? = nil, arguments: [String] = [], _ body: (ServeProcess) async throws -> T
) async throws -> T {
    let server = try ServeProcess(scenarioYAML: scenarioYAML, arguments: arguments)
    defer { server.stop() }
    return try await body(server)
}
