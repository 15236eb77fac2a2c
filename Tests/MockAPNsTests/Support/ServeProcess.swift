import Foundation

/// A real `mock-apns serve` process, as a user starts it: its banner read up to "ready", its ports from the
/// banner, its memory and descriptors from `/proc`, its records from the JSONL journal; always stopped.
/// Sendable: the stored properties are constants once `init` returns, and the methods only read `/proc` and files.
final class ServeProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One line of the JSONL journal, reduced to what the attack tests' invariant needs.
    struct Record {
        /// The client's local port (from `remoteAddress`).
        var port: Int
        var stream: Int
        /// The status sent, or nil for a request recorded without an answer.
        var status: Int?
    }

    let process = ChildProcess()
    /// What it printed up to and including "ready".
    let banner: String
    /// The TLS port from the banner.
    let port: Int
    /// The cleartext port from the banner, when it serves one.
    let cleartextPort: Int?
    /// The JSONL journal, when started with one by `init(scenarioYAML:arguments:)`.
    let journalPath: String?
    /// Files this process owns and removes when it stops.
    private let ownedFiles: [String]
    /// Where its standard error goes.
    private let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID()).err")

    /// What a starting `mock-apns serve` prints on `handle` up to and including its "ready" line; less if the
    /// output ends first or (checked between chunks) `timeout` passes; awaited on a thread of its own (see
    /// `offPool`: no test blocks).
    static func readBanner(_ handle: FileHandle, timeout: Duration = .seconds(30)) async -> String {
        await handle.read(until: "\nready", timeout: timeout)
    }

    /// Starts `mock-apns serve arguments` in `directory` and reads its banner up to "ready" (at most `timeout`).
    /// `executable` is the `mock-apns` to start (`InstalledMockAPNs` passes its installed one).
    init(
        _ arguments: [String], in directory: URL, timeout: Duration = .seconds(30), journalPath: String? = nil,
        ownedFiles: [String] = [], executable: String = ServeProcess.executable
    ) async throws {
        self.journalPath = journalPath
        self.ownedFiles = ownedFiles
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve"] + arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)  // opening it below fails if not
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let banner = await Self.readBanner(out.fileHandleForReading, timeout: timeout)
        // Nothing reads standard output from here on: after "ready" the server prints nothing there.
        self.banner = banner
        func portAfter(_ prefix: String) -> Int? {
            guard let range = banner.range(of: prefix) else { return nil }
            return Int(banner[range.upperBound...].prefix { $0.isNumber })
        }
        guard banner.contains("\nready"), let port = portAfter("https://127.0.0.1:") else {
            port = 0
            cleartextPort = nil
            await stop()
            throw Failure(description: "mock-apns serve did not start:\n\(banner)\n\(errors)")
        }
        self.port = port
        // On its own line: the inspector's and the control API's URLs are http://127.0.0.1 too.
        let cleartextLine = banner.split(separator: "\n").first { $0.contains("cleartext HTTP/2") }
        cleartextPort = cleartextLine.flatMap { line in
            line.range(of: "http://127.0.0.1:").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
        }
    }

    /// Starts `mock-apns serve` on free ports with a JSONL journal (and `scenarioYAML` as its scenario file), from
    /// the package root.
    convenience init(scenarioYAML: String? = nil, arguments: [String] = []) async throws {
        let directory = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let journalPath = directory.appendingPathComponent("attack-\(id).jsonl").path
        var all = [
            "--port", "0", "--cleartext-port", "0", "--control-port", "0", "--journal", journalPath,
            "--log-level", "error",
        ]
        var owned = [journalPath]
        if let scenarioYAML {
            let path = directory.appendingPathComponent("attack-\(id).yaml").path
            try scenarioYAML.write(toFile: path, atomically: true, encoding: .utf8)
            owned.append(path)
            all += ["--scenario", path]
        }
        try await self.init(
            all + arguments, in: AuthTestFiles.packageRoot, journalPath: journalPath, ownedFiles: owned)
    }

    /// The `mock-apns` built with the tests, or `MOCK_APNS_ATTACK_EXECUTABLE` (to attack a release build).
    static var executable: String {
        ProcessInfo.processInfo.environment["MOCK_APNS_ATTACK_EXECUTABLE"] ?? CLITests.executable
    }

    /// The process id, for `/proc`.
    var pid: Int32 { process.processIdentifier }

    /// What it wrote to standard error so far (log lines).
    var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// The URL after "control API (HTTP/1.1)" in the banner.
    var controlURL: String? {
        bannerLine(containing: "control API (HTTP/1.1)")?.split(separator: " ").first { $0.hasPrefix("http://") }
            .map(String.init)
    }

    /// The first banner line that contains `text`.
    func bannerLine(containing text: String) -> String? {
        banner.split(separator: "\n").first { $0.contains(text) }.map(String.init)
    }

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

    /// The journal's requests, once two reads 300 ms apart agree (the file is appended off the event loop); the
    /// records the server writes of itself (no remote address) are left out. Blocks: for code already off the pool;
    /// a test awaits `records(from:)`.
    func recordsBlocking(from firstLine: Int = 0) throws -> [Record] {
        guard let journalPath else { throw Failure(description: "this serve process keeps no journal file") }
        var previous = -1
        var text = ""
        for _ in 0..<50 {
            text = (try? String(contentsOfFile: journalPath, encoding: .utf8)) ?? ""
            if text.utf8.count == previous { break }
            previous = text.utf8.count
            Thread.sleep(forTimeInterval: 0.3)
        }
        return try Self.requests(in: text, from: firstLine)
    }

    /// `recordsBlocking(from:)` on a thread of its own, awaited (see `offPool`: no test blocks).
    func records(from firstLine: Int = 0) async throws -> [Record] {
        try await offPool { try self.recordsBlocking(from: firstLine) }
    }

    /// The requests among the journal lines of `text` from `firstLine` on.
    private static func requests(in text: String, from firstLine: Int) throws -> [Record] {
        try text.split(separator: "\n").dropFirst(firstLine).compactMap { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            // A record the server wrote of itself (a broadcast's fan-out, a phone's later event) came on no stream.
            if let object, object["remoteAddress"] == nil, object["kind"] is String { return nil }
            guard let object, let address = object["remoteAddress"] as? String, let stream = object["stream"] as? Int,
                let port = address.split(separator: ":").last.flatMap({ Int($0) })
            else { throw Failure(description: "unreadable journal line: \(line.prefix(200))") }
            let status = (object["response"] as? [String: Any])?["status"] as? Int
            return Record(port: port, stream: stream, status: status)
        }
    }

    /// Lines in the journal now (a mark to count from).
    func journalLineCount() -> Int {
        guard let journalPath else { return 0 }
        return ((try? String(contentsOfFile: journalPath, encoding: .utf8)) ?? "").utf8.reduce(0) {
            $0 + ($1 == 10 ? 1 : 0)
        }
    }

    /// SIGTERM, then SIGKILL after 5 s; removes the files it owns. Safe to call more than once. Blocks: for a
    /// `defer` or `deinit`, where it ends within milliseconds of SIGTERM unless a push is still in flight (the
    /// server's grace for those is 5 s).
    func stop() {
        process.stop(grace: .seconds(5))
        for file in ownedFiles { try? FileManager.default.removeItem(atPath: file) }
    }

    /// `stop()` on a thread of its own, awaited (see `offPool`: no test blocks).
    func stop() async {
        await offPool { self.stop() }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: errorFile)
    }
}

/// Starts a `mock-apns serve` process for one test and always stops it.
func withServeProcess<T>(
    scenarioYAML: String? = nil, arguments: [String] = [], _ body: (ServeProcess) async throws -> T
) async throws -> T {
    let server = try await ServeProcess(scenarioYAML: scenarioYAML, arguments: arguments)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
