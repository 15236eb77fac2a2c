import Foundation
import Spawn

#if canImport(Glibc)
import Glibc
#endif

/// A program a test starts, in the shape of Foundation's `Process` (set the properties, `run()`,
/// `waitUntilExit()`), on `Spawn`: waited for by its process id, and given no descriptor but its standard input,
/// output and error.
///
/// Not `Process`: on Linux it notices a child's exit when a socket the child inherited closes, and a program that
/// another test starts at the same moment can inherit that socket too. In CI a test's seven curls then took 354 s
/// instead of one: each curl's exit went unnoticed until the release build that PackageTests had started beside it
/// ended (swift-corelibs-foundation issue 4795).
final class ChildProcess: @unchecked Sendable {
    /// How it ended: `terminationStatus` is then the exit status or the signal.
    enum TerminationReason: Equatable {
        case exit
        case uncaughtSignal
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var executableURL: URL?
    var arguments: [String] = []
    var currentDirectoryURL: URL?
    /// Replaces the inherited environment when set.
    var environment: [String: String]?
    /// A `Pipe`, a `FileHandle`, or nil for `/dev/null`; by default the test process's own. The child's end of a
    /// pipe is closed here once it has started, so reading the other end ends when the child (and whatever it
    /// started with that end) has closed it.
    var standardInput: Any? = FileHandle.standardInput
    var standardOutput: Any? = FileHandle.standardOutput
    var standardError: Any? = FileHandle.standardError

    /// Set once `run()` has started it; `lock` guards it, read from other threads.
    private var child: SpawnedChild?
    private let lock = NSLock()

    /// Its process id, once `run()` has started it (0 before). It leads a process group of its own, as with
    /// `Process`.
    var processIdentifier: pid_t { started?.pid ?? 0 }

    /// Starts it; a thread of its own waits for its end.
    func run() throws {
        guard let executableURL else { throw Failure(description: "no executableURL") }
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        func descriptor(_ stream: Any?, pipeEnd: (Pipe) -> FileHandle) throws -> Int32? {
            let standard = [FileHandle.standardInput, FileHandle.standardOutput, FileHandle.standardError]
            switch stream {
            case let pipe as Pipe:
                return pipeEnd(pipe).fileDescriptor
            case let handle as FileHandle where standard.contains { $0 === handle }:
                return nil
            case let handle as FileHandle where handle !== FileHandle.nullDevice:
                return handle.fileDescriptor
            case nil, is FileHandle:
                let null = open("/dev/null", O_RDWR | O_CLOEXEC)
                guard null >= 0 else { throw Failure(description: "/dev/null: \(String(cString: strerror(errno)))") }
                opened.append(null)
                return null
            case let other?:
                throw Failure(description: "a standard stream must be a Pipe, a FileHandle or nil, not \(type(of: other))")
            }
        }
        let input = try descriptor(standardInput) { $0.fileHandleForReading }
        let output = try descriptor(standardOutput) { $0.fileHandleForWriting }
        let errors = try descriptor(standardError) { $0.fileHandleForWriting }
        let child: SpawnedChild
        do {
            child = try Spawn.start(
                executableURL.path, arguments: [executableURL.path] + arguments,
                environment: environment ?? ProcessInfo.processInfo.environment,
                directory: currentDirectoryURL?.path, standardInput: input, standardOutput: output,
                standardError: errors, ownProcessGroup: true)
        } catch {
            throw Failure(description: "\(executableURL.path): cannot start it: \(error)")
        }
        for case let pipe as Pipe in [standardOutput, standardError] { try? pipe.fileHandleForWriting.close() }
        if let pipe = standardInput as? Pipe { try? pipe.fileHandleForReading.close() }
        lock.withLock { self.child = child }
    }

    /// Whether it has started and not yet ended.
    var isRunning: Bool {
        guard let started else { return false }
        return started.termination == nil
    }

    /// Blocks until it has ended: for code already off the pool; a test awaits `waitUntilExit()`.
    func waitUntilExitBlocking() {
        guard let started else { preconditionFailure("the process has not started") }
        started.waitUntilEnded()
    }

    /// Blocks until it has ended or `timeout` has passed (`SpawnedChild.waitUntilEnded(timeout:)`); whether it
    /// ended.
    func waitUntilExitBlocking(timeout: Duration) -> Bool {
        guard let started else { preconditionFailure("the process has not started") }
        return started.waitUntilEnded(timeout: timeout) != nil
    }

    /// Its exit status, or the signal that ended it (see `terminationReason`); only once it has ended.
    var terminationStatus: Int32 {
        switch endedTermination {
        case .exited(let status), .signalled(let status): status
        }
    }

    var terminationReason: TerminationReason {
        if case .signalled = endedTermination { return .uncaughtSignal }
        return .exit
    }

    /// `waitUntilExitBlocking()` on a thread of its own, awaited (see `offPool`: no test blocks).
    func waitUntilExit() async {
        await offPool { self.waitUntilExitBlocking() }
    }

    /// `waitUntilExitBlocking(timeout:)` on a thread of its own, awaited.
    func waitUntilExit(timeout: Duration) async -> Bool {
        await offPool { self.waitUntilExitBlocking(timeout: timeout) }
    }

    /// `stop(grace:)` on a thread of its own, awaited.
    func stop(grace: Duration) async {
        await offPool { self.stop(grace: grace) }
    }

    /// Sends SIGTERM, if it is still running.
    func terminate() {
        signal(SIGTERM)
    }

    /// Sends SIGINT, if it is still running.
    func interrupt() {
        signal(SIGINT)
    }

    /// SIGTERM, then SIGKILL if it has not ended within `grace` (`SpawnedChild.terminateAndWait`); returns once it
    /// has ended. Nothing if it never started.
    func stop(grace: Duration) {
        started?.terminateAndWait(grace: grace)
    }

    /// Sends `number`, if it is still running.
    func signal(_ number: Int32) {
        started?.signal(number)
    }

    private var started: SpawnedChild? { lock.withLock { child } }

    private var endedTermination: Spawn.Termination {
        guard let termination = started?.termination else { preconditionFailure("the process has not ended") }
        return termination
    }
}
