import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM sent to `mock-apns run`, caught (not acted on) so that `run` can pass them to COMMAND and
/// still stop the server cleanly and write its outputs.
///
/// `@unchecked Sendable`: the stored properties are constants set in `init`; dispatch sources are thread-safe
/// (`cancel` may be called from any thread) but not marked `Sendable` in swift-corelibs-libdispatch.
final class RunSignals: @unchecked Sendable {
    /// The signals caught.
    static let caught = [SIGINT, SIGTERM]

    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation

    /// Starts catching; COMMAND, started by `posix_spawn` (`RunChild`), gets the default dispositions back.
    init() {
        (stream, continuation) = AsyncStream<Int32>.makeStream()
        let continuation = self.continuation
        sources = Self.caught.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Waits for the next signal and returns its number; `nil` once `stop` was called. One caller at a time.
    func next() async -> Int32? {
        for await number in stream { return number }
        return nil
    }

    /// Stops catching: the default dispositions come back (a second Ctrl-C while the outputs are written stops
    /// `run` at once).
    func stop() {
        for source in sources { source.cancel() }
        for number in Self.caught { signal(number, SIG_DFL) }
        continuation.finish()
    }
}
