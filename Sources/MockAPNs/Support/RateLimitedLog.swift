import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Logs a line per kind at most once per `interval`, with the count of lines it held back since the last one.
///
/// For events a misbehaving client can repeat thousands of times a second (failed handshakes, refused
/// connections): the first says what happened and what to do, the rest are counted, not printed.
final class RateLimitedLog: Sendable {
    private struct Entry {
        var lastLogged: NIODeadline
        var suppressed: Int
    }

    private let interval: TimeAmount
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    /// A limiter that lets one line per kind through every `interval` (10 s by default).
    init(interval: TimeAmount = .seconds(10)) {
        self.interval = interval
    }

    /// Logs `message` at `level` unless a line of `kind` went out less than `interval` ago; returns whether it did.
    @discardableResult
    func log(
        _ logger: Logger, level: Logger.Level = .info, kind: String, _ message: @autoclosure () -> String,
        metadata: Logger.Metadata = [:], now: NIODeadline = .now()
    ) -> Bool {
        let suppressed = entries.withLockedValue { entries -> Int? in
            if let entry = entries[kind], now - entry.lastLogged < interval {
                entries[kind]!.suppressed += 1
                return nil
            }
            let held = entries[kind]?.suppressed ?? 0
            entries[kind] = Entry(lastLogged: now, suppressed: 0)
            return held
        }
        guard let suppressed else { return false }
        var metadata = metadata
        if suppressed > 0 { metadata["suppressed"] = "\(suppressed) more since the last such line" }
        logger.log(level: level, "\(message())", metadata: metadata)
        return true
    }
}
