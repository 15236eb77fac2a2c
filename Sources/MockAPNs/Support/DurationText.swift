/// Durations as people type them in scenarios, control API parameters and CLI options: `250ms`, `5s`, `1.5s`,
/// `2m`, `1h`.
///
/// The one parser for every duration a user can write, so that each is range-checked the same way and none can
/// overflow: the number is read as a `Double`, compared with the maximum in seconds, and only then turned into a
/// `Duration` (whole nanoseconds).
public enum DurationText {
    /// Why a text is not an acceptable duration, in words that follow the field or parameter name.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// For example `must be at most 24h, got '99999m'`.
        public var message: String

        /// The message.
        public var description: String { message }
    }

    /// The units, longest suffix first where one ends another (`ms` before `s`).
    private static let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]

    /// Reads `250ms`, `5s`, `1.5s`, `2m` or `1h`, within `range` (`must be from 10ms to 10m, got '1ms'`).
    public static func parse(_ text: String, in range: ClosedRange<Duration>) -> Result<Duration, Problem> {
        let parsed = parse(text, maximum: range.upperBound)
        let outside = Problem(message: "must be from \(self.text(range.lowerBound)) to \(self.text(range.upperBound)), got '\(text)'")
        switch parsed {
        case .success(let duration) where duration < range.lowerBound: return .failure(outside)
        case .failure(let problem) where problem.message.hasPrefix("must be at most"): return .failure(outside)
        default: return parsed
        }
    }

    /// Reads `250ms`, `5s`, `1.5s`, `2m` or `1h`, from 0 to `maximum`; a number needs its unit.
    public static func parse(_ text: String, maximum: Duration) -> Result<Duration, Problem> {
        let trimmed = text.trimmingASCIISpaces()
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = String(trimmed.dropLast(unit.suffix.count)).trimmingASCIISpaces()
            guard let first = number.first, first.isNumber || first == "-" || first == ".",
                let value = Double(number), value.isFinite
            else { break }
            guard value >= 0 else { return .failure(Problem(message: "must not be negative, got '\(text)'")) }
            let seconds = value * unit.seconds
            guard seconds <= self.seconds(maximum) else {
                return .failure(Problem(message: "must be at most \(self.text(maximum)), got '\(text)'"))
            }
            // At most the maximum (a day or so), so the nanoseconds fit an Int64 with room to spare.
            return .success(.nanoseconds(Int64((seconds * 1e9).rounded())))
        }
        if Double(trimmed) != nil {
            return .failure(
                Problem(message: "a duration needs a unit: ms, s, m or h (for example \(trimmed)ms or \(trimmed)s)"))
        }
        return .failure(Problem(message: "expected a duration such as 250ms, 2s, 1.5s, 1m or 1h; got '\(text)'"))
    }

    /// `duration` in seconds, as a `Double` (never traps).
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `duration` in whole milliseconds, saturating at `Int64.min` / `Int64.max` instead of trapping.
    public static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowAdding) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if overflowAdding { return seconds < 0 ? .min : .max }
        return sum
    }

    /// `250ms` below a second; whole hours, minutes or seconds as `1h`, `2m`, `5s`; else seconds (`1.5s`).
    public static func text(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        if milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds % 60_000 == 0, milliseconds < 3_600_000 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(Double(milliseconds) / 1000)s"
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingASCIISpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
