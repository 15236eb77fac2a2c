import NIOCore

/// Sent to every connection when the shutdown grace period ends: answers still waiting on a scripted delay go out
/// at once, streams held with no answer (`no-response`) are reset (RST_STREAM CANCEL).
struct ShutdownDeadlineEvent: Sendable {}

/// What a connection still owes its client beyond the current read: answers waiting on a scripted delay, and
/// streams a `no-response` rule holds. Kept so that neither outlives the connection or the server unrecorded.
///
/// Only scripted delays and `no-response` rules add to it; an ordinary push never touches it.
struct HeldAnswers {
    private var nextKey = 0
    private var delayed: [Int: (task: Scheduled<Void>, run: () -> Void)] = [:]
    /// Streams a `no-response` rule holds open (some may have been reset by the client since).
    private(set) var heldStreams: [Int32] = []

    /// A key for the next delayed answer.
    mutating func reserveKey() -> Int {
        nextKey += 1
        return nextKey
    }

    /// Keeps the delayed answer `key`: `task` runs it when its delay ends, `run` runs it early.
    mutating func keep(_ key: Int, task: Scheduled<Void>, run: @escaping () -> Void) {
        delayed[key] = (task, run)
    }

    /// Forgets the delayed answer `key` (it is running now).
    mutating func forget(_ key: Int) {
        delayed.removeValue(forKey: key)
    }

    /// Notes a stream held open with no answer; from time to time forgets those no longer open.
    mutating func hold(_ streamID: Int32, isOpen: (Int32) -> Bool) {
        heldStreams.append(streamID)
        if heldStreams.count >= 1024, heldStreams.count.nonzeroBitCount == 1 {
            heldStreams.removeAll { !isOpen($0) }
        }
    }

    /// Cancels every delayed answer's timer and returns them, oldest first, to run now; forgets the held streams.
    mutating func takeAll() -> (delayed: [() -> Void], streams: [Int32]) {
        let runs = delayed.sorted { $0.key < $1.key }.map { entry in
            entry.value.task.cancel()
            return entry.value.run
        }
        delayed = [:]
        defer { heldStreams = [] }
        return (runs, heldStreams)
    }
}
