import Foundation

/// A real `mock-apns inspect FILE` process: its banner read up to "ready", its URL from the first line, its
/// standard error kept; always stopped.
final class InspectProcess: @unchecked Sendable {
    let process = ChildProcess()
    /// What it printed up to and including "ready".
    let banner: String
    /// The inspector's URL without the trailing `/` (`http://127.0.0.1:<port>`).
    let url: String
    private let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID()).err")

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `mock-apns inspect arguments` from the package root and reads its banner (at most 30 s).
    init(_ arguments: [String]) async throws {
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = ["inspect"] + arguments
        process.currentDirectoryURL = AuthTestFiles.packageRoot
        process.environment = RunTestSupport.environment()
        let out = Pipe()
        process.standardOutput = out
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        banner = await out.fileHandleForReading.read(until: "\nready", timeout: .seconds(30))
        let first = banner.split(separator: "\n").first ?? ""
        guard banner.contains("\nready"), first.hasPrefix("inspector: http://"),
            let url = first.split(separator: " ").dropFirst().first.map({ String($0.dropLast()) })
        else {
            await process.stop(grace: .seconds(5))
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: errorFile)
            throw Failure(description: "mock-apns inspect did not start:\n\(banner)\n\(errors)")
        }
        self.url = url
    }

    /// What it wrote to standard error so far.
    var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Peak resident memory in KiB (`VmHWM`).
    var peakMemory: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return line.split(separator: " ").compactMap { Int($0) }.first ?? 0
    }

    /// Stops it with SIGTERM and waits; returns its exit status. Blocks: for a `defer`, where it ends within
    /// milliseconds of SIGTERM; a test that checks how it ends awaits the other form.
    @discardableResult
    func stop() -> Int32 {
        process.stop(grace: .seconds(10))
        try? FileManager.default.removeItem(at: errorFile)
        return process.terminationStatus
    }

    /// `stop()` on a thread of its own, awaited (see `offPool`: no test blocks).
    @discardableResult
    func stop() async -> Int32 {
        await offPool { self.stop() }
    }
}
