import Foundation

/// Runs a program to completion and collects what it printed.
enum Subprocess {
    /// Runs `executable` with `arguments` (in `directory` if given), standard input empty; returns its exit status,
    /// standard output and standard error. `environment` replaces the inherited one when given; after `timeout`
    /// seconds, if given, the program is stopped as `Spawn` stops one: SIGTERM, then SIGKILL after a grace.
    /// Blocks: for code already off the pool; a test awaits `run` (see `offPool`).
    static func runBlocking(
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
        // Both pipes are read on threads of their own: a program that fills one while nothing reads it hangs, and
        // this thread waits for the program meanwhile.
        let output = PipeCollector(out.fileHandleForReading)
        let errors = PipeCollector(err.fileHandleForReading)
        if let timeout, !process.waitUntilExitBlocking(timeout: .seconds(timeout)) {
            process.stop(grace: stopGrace)
        }
        process.waitUntilExitBlocking()
        return (process.terminationStatus, output.text(), errors.text())
    }

    /// Runs `executable` until what it printed so far satisfies `until` (checked after each read), or `timeout`
    /// seconds passed, whichever comes first, then stops it; returns its standard output. For a program that
    /// streams without end (curl on a server-sent event stream): a test waits for what it needs however slow the
    /// machine, instead of a fixed window that a loaded machine overruns. Blocks: for code already off the pool.
    static func runUntilBlocking(
        _ executable: String, _ arguments: [String], timeout: TimeInterval, until done: (String) -> Bool
    ) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        Thread.detachNewThread { [process] in
            if !process.waitUntilExitBlocking(timeout: .seconds(timeout)) { process.stop(grace: stopGrace) }
        }
        var data = Data()
        let reader = out.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
            if done(String(decoding: data, as: UTF8.self)) {
                process.stop(grace: stopGrace)
                break
            }
        }
        process.waitUntilExitBlocking()
        return String(decoding: data, as: UTF8.self)
    }

    /// How long a program that overran its timeout has between SIGTERM and SIGKILL.
    static let stopGrace = Duration.seconds(2)

    /// `runBlocking` on a thread of its own, awaited (see `offPool`: no test blocks).
    static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        timeout: TimeInterval? = nil
    ) async throws -> (status: Int32, output: String, errors: String) {
        try await offPool {
            try runBlocking(executable, arguments, in: directory, environment: environment, timeout: timeout)
        }
    }

    /// Reads a pipe to its end on a thread of its own.
    private final class PipeCollector: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readToEndOfFileBlocking()
                done.signal()
            }
        }

        func text() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
