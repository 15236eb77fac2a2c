import Foundation

/// Runs a program to completion and collects what it printed.
enum Subprocess {
    /// Runs `executable` with `arguments` (in `directory` if given), standard input empty; returns its exit status,
    /// standard output and standard error. `environment` replaces the inherited one when given; after `timeout`
    /// seconds, if given, the program is terminated.
    static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        timeout: TimeInterval? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer) }
        defer { killer.cancel() }
        // Read standard error on another thread: a program that fills one pipe while we block on the other hangs.
        let errors = ErrorCollector(err.fileHandleForReading)
        let output = out.fileHandleForReading.readToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), errors.text())
    }

    /// `run` on a thread of its own, awaited: a program that runs for long does not hold one of the few threads
    /// the test suites' async work shares.
    static func runOnOwnThread(
        _ executable: String, _ arguments: [String], timeout: TimeInterval? = nil
    ) async throws -> (status: Int32, output: String, errors: String) {
        try await offPool { try run(executable, arguments, timeout: timeout) }
    }

    private final class ErrorCollector: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readToEndOfFile()
                done.signal()
            }
        }

        func text() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
