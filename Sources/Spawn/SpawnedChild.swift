import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program `Spawn.start` started: a thread of its own waits for it by process id and reaps it; until then it can
/// be signalled, and never after, so a signal cannot reach another process given the same id.
package final class SpawnedChild: @unchecked Sendable {
    /// Its process id.
    package let pid: pid_t
    private let ended = NSCondition()
    /// Set, under `ended`, once it has ended and been reaped.
    private var ending: Spawn.Termination?

    init(pid: pid_t, whenEnded: (@Sendable (Spawn.Termination) -> Void)?) {
        self.pid = pid
        Thread.detachNewThread { [self] in
            Spawn.waitUntilEnded(pid)
            ended.lock()
            let termination = Spawn.wait(pid)  // reaped under the lock that `signal` takes
            ending = termination
            ended.broadcast()
            ended.unlock()
            whenEnded?(termination)
        }
    }

    /// How it ended; nil while it runs.
    package var termination: Spawn.Termination? {
        ended.lock()
        defer { ended.unlock() }
        return ending
    }

    /// Blocks until it has ended, and says how.
    @discardableResult
    package func waitUntilEnded() -> Spawn.Termination {
        ended.lock()
        defer { ended.unlock() }
        while true {
            if let ending { return ending }
            ended.wait()
        }
    }

    /// Blocks until it has ended or `timeout` has passed; how it ended, or nil if it still runs.
    package func waitUntilEnded(timeout: Duration) -> Spawn.Termination? {
        let (seconds, attoseconds) = timeout.components
        let giveUp = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18)
        ended.lock()
        defer { ended.unlock() }
        while ending == nil, ended.wait(until: giveUp) {}
        return ending
    }

    /// Sends `number` to it, if it has not ended.
    package func signal(_ number: Int32) {
        ended.lock()
        defer { ended.unlock() }
        if ending == nil { kill(pid, number) }
    }

    /// Stops it as a service manager does: SIGTERM, then SIGKILL if it has not ended within `grace`. Blocks until
    /// it has ended, and says how.
    @discardableResult
    package func terminateAndWait(grace: Duration) -> Spawn.Termination {
        signal(SIGTERM)
        if waitUntilEnded(timeout: grace) == nil { signal(SIGKILL) }
        return waitUntilEnded()
    }

    /// `terminateAndWait(grace:)` for async code: SIGTERM, then SIGKILL if it has not ended within `grace`, without
    /// holding a thread. Returns once it has ended or the grace is over (after the SIGKILL); a cancelled task returns
    /// at once, without the SIGKILL.
    package func terminate(grace: Duration) async {
        signal(SIGTERM)
        let giveUp = ContinuousClock.now + grace
        while termination == nil, ContinuousClock.now < giveUp {
            guard (try? await Task.sleep(for: .milliseconds(20))) != nil else { return }
        }
        signal(SIGKILL)
    }
}
