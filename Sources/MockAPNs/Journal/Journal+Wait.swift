import NIOConcurrencyHelpers

extension Journal {
    /// Waits until `count` records match `query`, or `timeout` passes, or the task is cancelled.
    ///
    /// An observer sees every record as it is appended and resumes the waiter at once, so the answer follows
    /// the matching push by microseconds; records already in the journal count too.
    public func waitForRecords(matching query: JournalQuery, count: Int, timeout: Duration) async -> RecordWaitResult {
        let waiter = RecordWaiter(query: query, count: count)
        let observer = addObserver { record in waiter.offer(record) }
        defer { removeObserver(observer) }
        for record in window(for: query) { waiter.offer(record) }
        if !waiter.isSatisfied {
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
        let found = waiter.found
        let satisfied = found.count >= count
        return RecordWaitResult(
            satisfied: satisfied, count: count, records: found,
            nearMisses: satisfied ? [] : nearMisses(for: query))
    }
}

/// One wait in progress: the matching records seen so far and the continuation to resume once there are enough.
final class RecordWaiter: Sendable {
    private struct State {
        var found: [UInt64: JournalRecord] = [:]
        var continuation: CheckedContinuation<Void, Never>?
        var finished = false
    }

    private let query: JournalQuery
    private let count: Int
    private let state = NIOLockedValueBox(State())

    init(query: JournalQuery, count: Int) {
        self.query = query
        self.count = count
    }

    /// Counts `record` if it matches (once, whether it comes from the observer or the snapshot).
    func offer(_ record: JournalRecord) {
        guard query.matches(record) else { return }
        let resume = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.found[record.sequence] = record
            guard state.found.count >= count else { return nil }
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        resume?.resume()
    }

    /// Whether enough records were found.
    var isSatisfied: Bool { state.withLockedValue { $0.found.count >= count } }

    /// The matching records found, oldest first.
    var found: [JournalRecord] {
        state.withLockedValue { $0.found.values.sorted { $0.sequence < $1.sequence } }
    }

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
