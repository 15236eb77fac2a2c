import NIOConcurrencyHelpers

extension ActivityRegistry {
    /// Waits until an activity passes `matches`, or `timeout` passes, or the task is cancelled; answers the first
    /// activity that does (in start order among those already there), or `nil`.
    ///
    /// A watcher sees every change (start, push, rotation, dismissal) and resumes the waiter at once; no polling.
    /// Only changes wake it: a state reached by the clock alone (8 hours passed) is seen when the wait starts, not
    /// while it waits.
    func waitForActivity(
        timeout: Duration, where matches: @escaping @Sendable (LiveActivity) -> Bool
    ) async -> LiveActivity? {
        let waiter = ActivityWaiter(matches)
        let watcher = addWatcher { event in waiter.offer(event.activity) }
        defer { removeWatcher(watcher) }
        for activity in activities where waiter.found == nil { waiter.offer(activity) }
        if waiter.found == nil {
            let timer = Task {
                try? await Task.sleep(for: timeout)
                waiter.finish()
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in waiter.park(continuation) }
            } onCancel: {
                waiter.finish()
            }
            timer.cancel()
        }
        return waiter.found
    }
}

/// One wait for an activity in progress: the first match and the continuation to resume when it comes.
final class ActivityWaiter: Sendable {
    private struct State {
        var found: LiveActivity?
        var continuation: CheckedContinuation<Void, Never>?
        var finished = false
    }

    private let matches: @Sendable (LiveActivity) -> Bool
    private let state = NIOLockedValueBox(State())

    init(_ matches: @escaping @Sendable (LiveActivity) -> Bool) {
        self.matches = matches
    }

    /// Takes `activity` if it matches and nothing matched before, and ends the wait.
    func offer(_ activity: LiveActivity) {
        guard found == nil, matches(activity) else { return }
        let resume = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard state.found == nil else { return nil }
            state.found = activity
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        resume?.resume()
    }

    /// The first activity that matched.
    var found: LiveActivity? { state.withLockedValue { $0.found } }

    /// Suspends the waiting task here; resumes at once when the wait is already over.
    func park(_ continuation: CheckedContinuation<Void, Never>) {
        let finished = state.withLockedValue { state -> Bool in
            if state.finished { return true }
            state.continuation = continuation
            return false
        }
        if finished { continuation.resume() }
    }

    /// Ends the wait (timeout or cancellation), whatever was found.
    func finish() {
        let resume = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        resume?.resume()
    }
}
