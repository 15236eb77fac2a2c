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
        let waiter = Waiter<LiveActivity?>(nil)
        @Sendable func offer(_ activity: LiveActivity) {
            guard matches(activity) else { return }
            waiter.update { found in
                if found == nil { found = activity }  // the first match wins
                return true
            }
        }
        let watcher = addWatcher { event in offer(event.activity) }
        defer { removeWatcher(watcher) }
        for activity in activities where !waiter.isFinished { offer(activity) }
        await waiter.wait(timeout: timeout)
        return waiter.found
    }
}
