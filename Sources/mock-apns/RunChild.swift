import Foundation
import NIOConcurrencyHelpers
import Spawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// COMMAND of `mock-apns run`, started directly (no shell) with standard input, output and error inherited.
final class RunChild: Sendable {
    /// How long a COMMAND past `--timeout` has between SIGTERM and SIGKILL.
    static let killGrace = Duration.seconds(5)

    private let child: SpawnedChild
    private let timedOut = NIOLockedValueBox(false)
    private let exit: Task<CommandOutcome, Never>

    /// Starts `arguments[0]` (looked up in `PATH` unless it has a `/`) with `environment`; stops it after `timeout`.
    init(arguments: [String], environment: [String: String], timeout: Duration) throws {
        let executable = try Self.executable(arguments[0], path: environment["PATH"])
        // Spawn gives COMMAND every signal at its default (so it sees the SIGTERM of `--timeout` and of CI) and no
        // descriptor but standard input, output and error: a background grandchild cannot keep the mock's ports.
        let (ended, continuation) = AsyncStream<CommandOutcome>.makeStream()
        do {
            child = try Spawn.start(executable, arguments: arguments, environment: environment) { termination in
                continuation.yield(CommandOutcome(termination))
                continuation.finish()
            }
        } catch {
            throw CLIError("COMMAND \(executable): cannot start it: \(error)")
        }
        let child = child
        let timedOut = self.timedOut
        let watchdog = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            timedOut.withLockedValue { $0 = true }
            child.signal(SIGTERM)
            guard (try? await Task.sleep(for: Self.killGrace)) != nil else { return }
            child.signal(SIGKILL)
        }
        exit = Task {
            var outcome = CommandOutcome.exited(-1)
            for await ended in ended { outcome = ended }
            watchdog.cancel()
            return timedOut.withLockedValue { $0 } ? .timedOut(timeout) : outcome
        }
    }

    /// Sends `signal` to COMMAND (SIGINT and SIGTERM that `run` received go there first).
    func send(_ signal: Int32) {
        child.signal(signal)
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
