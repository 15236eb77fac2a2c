import Foundation
import NIOConcurrencyHelpers
import Spawn

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
            await child.terminate(grace: Self.killGrace)
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

    /// `name` as a file to execute, as a shell finds it (`Spawn.executable`); a `CLIError` when there is none.
    static func executable(_ name: String, path: String?) throws -> String {
        do {
            return try Spawn.executable(name, path: path)
        } catch .notExecutable {
            throw CLIError("COMMAND \(name): not an executable file")
        } catch {
            throw CLIError("COMMAND \(name): not found in PATH")
        }
    }
}
