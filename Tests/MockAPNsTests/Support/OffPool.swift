import Foundation

/// Runs blocking work (a curl, a mock-apns process, a read of a child's pipe) on a thread of its own and awaits it.
///
/// Swift's concurrency pool has as many threads as cores (two here), and a thread blocked in a synchronous wait is
/// not replaced. The in-process servers' control API, the mock's actors and every test's `Task.sleep` run on that
/// pool: two overlapping blocking waits anywhere in the test process stall them all (CI lost four tests in one
/// stretch that way; `PoolStarvationTests` shows it). A sync `@Test` runs on that pool too. So no test blocks: the
/// support types give each blocking wait an async form of the same name that calls this, and the blocking forms,
/// named `…Blocking`, are for code already off the pool (inside this, or on a thread of its own).
/// Not on Dispatch's global queues either: on Linux they share a worker limit of about one per core with the pool.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// `offPool` for work that cannot fail.
func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}

/// `offPool`, and how long after `start` `work` ended, read on the thread that ran it: a time read after the await
/// would also count the wait for a pool thread to resume on, which is seconds while a full run starts (a child that
/// ends at once on SIGTERM measured 11 s that way in CI).
func offPool<T: Sendable>(
    since start: ContinuousClock.Instant, _ work: @escaping @Sendable () throws -> T
) async throws -> (result: T, took: Duration) {
    try await offPool {
        let result = try work()
        return (result, ContinuousClock.now - start)
    }
}
