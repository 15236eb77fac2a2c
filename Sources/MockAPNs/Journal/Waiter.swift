import NIOConcurrencyHelpers

/// One wait in progress, for journal records or for an activity: what was found so far, and the task to resume
/// once that is enough. The one piece of waiting both `Journal.waitForRecords` and
/// `ActivityRegistry.waitForActivity` use: an observer offers what happens, nothing polls.
final class Waiter<Found: Sendable>: Sendable {
    private struct State {
        var found: Found
        var continuation: CheckedContinuation<Void, Never>?
        var finished = false
    }

    private let state: NIOLockedValueBox<State>

    /// A wait that has found `nothing` yet.
    init(_ nothing: Found) {
        state = NIOLockedValueBox(State(found: nothing))
    }

    /// What was found so far.
    var found: Found { state.withLockedValue { $0.found } }

    /// Whether the wait is over (found enough, timed out or cancelled).
    var isFinished: Bool { state.withLockedValue { $0.finished } }

    /// Changes what was found, under the lock; `change` answers whether that is enough, which ends the wait.
    func update(_ change: (inout Found) -> Bool) {
        let resume = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard change(&state.found) else { return nil }
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        resume?.resume()
    }

    /// Suspends the calling task until the wait ends: enough found, `timeout` passed, or the task cancelled.
    func wait(timeout: Duration) async {
        guard !isFinished else { return }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.finish()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in park(continuation) }
        } onCancel: {
            finish()
        }
        timer.cancel()
    }

    /// Keeps `continuation` to resume when the wait ends; resumes it at once when it is already over.
    private func park(_ continuation: CheckedContinuation<Void, Never>) {
        let finished = state.withLockedValue { state -> Bool in
            if state.finished { return true }
            state.continuation = continuation
            return false
        }
        if finished { continuation.resume() }
    }

    /// Ends the wait (timeout or cancellation), whatever was found.
    private func finish() {
        let resume = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        resume?.resume()
    }
}
