import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The write end of the pipe `RunSignals`' handler reports to; -1 while none is installed.
private nonisolated(unsafe) var signalPipeWriteEnd: Int32 = -1

/// The handler of SIGINT and SIGTERM while `RunSignals` catches them: writes the signal's number to the pipe (one
/// byte; `write` is async-signal-safe).
private func reportSignal(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
}

/// SIGINT and SIGTERM sent to `mock-apns run`, caught (not acted on) so that `run` can pass them to COMMAND and
/// still stop the server cleanly and write its outputs.
///
/// The handler is installed with `sigaction` before `init` returns, so a signal that arrives at once (a CI job
/// cancelled as it starts, a test's SIGINT right after the banner) is caught, never ignored: a dispatch signal
/// source arms itself later, on another thread, and left such a signal lost. The handler writes to a pipe; a
/// thread reads it into an `AsyncStream`. One `RunSignals` at a time.
final class RunSignals: @unchecked Sendable {
    /// The signals caught.
    static let caught = [SIGINT, SIGTERM]

    private let stream: AsyncStream<Int32>
    private let readEnd: Int32
    private let writeEnd: Int32

    /// Starts catching; COMMAND, started by `posix_spawn` (`RunChild`), gets the default dispositions back.
    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        (readEnd, writeEnd) = (ends[0], ends[1])
        signalPipeWriteEnd = writeEnd
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        let readEnd = self.readEnd
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    continuation.yield(Int32(byte))
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            continuation.finish()
        }
        for number in Self.caught { signal(number, reportSignal) }
    }

    /// Waits for the next signal and returns its number; `nil` once `stop` was called. One caller at a time.
    func next() async -> Int32? {
        for await number in stream { return number }
        return nil
    }

    /// Stops catching: the default dispositions come back (a second Ctrl-C while the outputs are written stops
    /// `run` at once), and `next` returns `nil`.
    func stop() {
        for number in Self.caught { signal(number, SIG_DFL) }
        signalPipeWriteEnd = -1
        close(writeEnd)
    }

    deinit {
        close(readEnd)
    }
}
