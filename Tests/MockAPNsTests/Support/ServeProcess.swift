import Foundation

/// `mock-apns serve` run as a separate process: started, its banner read up to "ready", always stopped.
final class ServeProcess {
    let process = Process()
    /// What it printed up to and including "ready".
    private(set) var banner = ""
    /// Where its standard error goes.
    private let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID()).err")

    /// Starts `mock-apns serve arguments` in `directory` and reads its banner (at most `timeout`).
    init(_ arguments: [String], in directory: URL, timeout: Duration = .seconds(30)) throws {
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = ["serve"] + arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while !banner.contains("\nready"), ContinuousClock.now < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// What it wrote to standard error so far (log lines).
    var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// The URL after "control API (HTTP/1.1)" in the banner.
    var controlURL: String? {
        bannerLine(containing: "control API (HTTP/1.1)")?.split(separator: " ").first { $0.hasPrefix("http://") }
            .map(String.init)
    }

    /// The TLS port from the "APNs (HTTP/2 over TLS)" line.
    var port: Int? {
        bannerLine(containing: "APNs (HTTP/2 over TLS)")?.split(separator: ":").last.flatMap { Int($0) }
    }

    /// The first banner line that contains `text`.
    func bannerLine(containing text: String) -> String? {
        banner.split(separator: "\n").first { $0.contains(text) }.map(String.init)
    }

    /// Sends SIGTERM and waits for the exit.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: errorFile)
    }
}
