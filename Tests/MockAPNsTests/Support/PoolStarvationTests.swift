import Foundation
import Testing

/// The test support's waits leave the thread they are awaited on free (see `offPool`).
@Suite("test support: waiting for a child holds no thread of the concurrency pool")
struct PoolStarvationTests {
    /// A reader of a child that prints only after 3 s, as a starting server does, and a 100 ms sleeper, both
    /// tasks on one thread of their own (standing in for the pool, which the rest of the suite keeps busy): the
    /// sleeper must be done on time. With a blocking read the thread waited out the 3 s and the sleeper ended after
    /// it, as `Task.sleep` did in CI (16 s late, two tests failed). The sleep itself is off the pool, so that its
    /// wake-up needs only that one thread (`Task.sleep`'s timer goes through the global executor).
    @available(macOS 15, *)
    @Test("a 100 ms sleeper is done on time beside a read of a child that answers after 3 s")
    func sleeperWakesWhileAChildIsRead() async throws {
        let executor = OneThreadExecutor()
        defer { executor.shutDown() }
        let clock = ContinuousClock()
        let begun = clock.now
        let (woke, text) = try await withTaskExecutorPreference(executor) {
            try await withThrowingTaskGroup(of: (ContinuousClock.Instant?, String?).self) { group in
                group.addTask {
                    let child = ChildProcess()
                    child.executableURL = URL(fileURLWithPath: "/bin/sh")
                    child.arguments = ["-c", "sleep 3; echo ready"]
                    let out = Pipe()
                    child.standardOutput = out
                    child.standardInput = FileHandle.nullDevice
                    try child.run()
                    let text = await out.fileHandleForReading.read(until: "ready", timeout: .seconds(30))
                    await child.waitUntilExit()
                    return (nil, text)
                }
                // After the reader, so that the read has begun when the sleep needs the thread to wake.
                group.addTask {
                    await offPool { Thread.sleep(forTimeInterval: 0.1) }
                    return (clock.now, nil)
                }
                var woke: ContinuousClock.Instant?
                var text: String?
                for try await (instant, read) in group {
                    woke = instant ?? woke
                    text = read ?? text
                }
                return (woke, text)
            }
        }
        #expect(text?.contains("ready") == true, "the child's output: \(text ?? "none")")
        let took = try #require(woke) - begun
        #expect(took < .seconds(2), "the 100 ms sleeper was done after \(took): the read held the thread")
    }
}

/// Runs the jobs of the tasks that prefer it, one at a time, on one thread of its own.
@available(macOS 15, *)
private final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var running = true

    init() {
        Thread.detachNewThread { [self] in
            while let job = next() { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            precondition(running, "a job came after shutDown(): its task would never run")
            jobs.append(job)
            condition.signal()
        }
    }

    /// Ends the thread once the jobs queued so far have run.
    func shutDown() {
        condition.withLock {
            running = false
            condition.signal()
        }
    }

    /// The next job, waiting for one; nil once shut down and drained.
    private func next() -> UnownedJob? {
        condition.withLock {
            while jobs.isEmpty, running { condition.wait() }
            return jobs.isEmpty ? nil : jobs.removeFirst()
        }
    }
}
