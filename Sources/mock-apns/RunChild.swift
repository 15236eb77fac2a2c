import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// COMMAND of `mock-apns run`, started directly (no shell) with standard input, output and error inherited.
final class RunChild: Sendable {
    /// How long a COMMAND past `--timeout` has between SIGTERM and SIGKILL.
    static let killGrace = Duration.seconds(5)

    private let pid: pid_t
    private let timedOut = NIOLockedValueBox(false)
    private let exit: Task<CommandOutcome, Never>

    /// Starts `arguments[0]` (looked up in `PATH` unless it has a `/`) with `environment`; stops it after `timeout`.
    init(arguments: [String], environment: [String: String], timeout: Duration) throws {
        let executable = try Self.executable(arguments[0], path: environment["PATH"])
        let pid = try Self.spawn(executable, arguments: arguments, environment: environment)
        self.pid = pid
        let (ended, continuation) = AsyncStream<CommandOutcome>.makeStream()
        Thread.detachNewThread {
            continuation.yield(Self.wait(pid))
            continuation.finish()
        }
        let timedOut = self.timedOut
        let watchdog = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            timedOut.withLockedValue { $0 = true }
            kill(pid, SIGTERM)
            guard (try? await Task.sleep(for: Self.killGrace)) != nil else { return }
            kill(pid, SIGKILL)
        }
        exit = Task {
            var outcome = CommandOutcome.exited(-1)
            for await ended in ended { outcome = ended }
            watchdog.cancel()
            return timedOut.withLockedValue { $0 } ? .timedOut(timeout) : outcome
        }
    }

    /// `posix_spawn` with every signal unblocked and at its default disposition. Foundation's `Process` passes on
    /// the spawning thread's signal mask, and the threads of a Swift program block most signals (SIGTERM included):
    /// COMMAND would then never see the SIGTERM of `--timeout` or of CI.
    private static func spawn(_ executable: String, arguments: [String], environment: [String: String]) throws -> pid_t
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // Only stdin, stdout and stderr go to COMMAND: not the mock's listening sockets and event-loop descriptors,
        // which a background grandchild would otherwise keep open (and the ports bound) after `run` ends.
        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        closeInheritedDescriptors(&files)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &files, &attributes, argv, envp)
        guard result == 0 else {
            throw CLIError("COMMAND \(executable): cannot start it: \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Adds "close every descriptor from 3 up" to `files`: glibc's `posix_spawn_file_actions_addclosefrom_np`
    /// (2.34 and later; Swift's Glibc module does not import it, so it is looked up by name), Darwin's
    /// `POSIX_SPAWN_CLOEXEC_DEFAULT` being the same idea. Without it (an older glibc) COMMAND inherits them.
    private static func closeInheritedDescriptors(_ files: inout posix_spawn_file_actions_t) {
        #if os(Linux)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&files, 3)
        #endif
    }

    /// Blocks until `pid` ends and says how (the `WIFEXITED`/`WTERMSIG` encoding of the wait status, which Swift
    /// cannot import as macros).
    private static func wait(_ pid: pid_t) -> CommandOutcome {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return .exited(-1) }
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// Sends `signal` to COMMAND (SIGINT and SIGTERM that `run` received go there first).
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for COMMAND to end.
    var outcome: CommandOutcome {
        get async { await exit.value }
    }

    /// `name` as a file to execute: itself when it has a `/`, else the first executable `PATH` entry of that name,
    /// as a shell finds it; a `CLIError` when there is none.
    static func executable(_ name: String, path: String?) throws -> String {
        if name.contains("/") {
            guard access(name, X_OK) == 0 else { throw CLIError("COMMAND \(name): not an executable file") }
            return name
        }
        let folders = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        for folder in folders {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw CLIError("COMMAND \(name): not found in PATH")
    }
}
