import Foundation

/// A point in time as people type it in filters (`--after`, `--before`, the control API's `after` and `before`,
/// and the query language's `after:` and `before:`).
///
/// Three forms:
/// - a time of day, `16:10` or `16:10:30`: today, in the local time zone of whoever resolves it (the server's);
/// - an ISO 8601 date and time with an offset or `Z`: `2026-11-25T16:10:00Z`, `2026-11-25T17:10:00.250+01:00`;
/// - a negative duration, `-5m`, `-90s`, `-2h` (units as `DurationText` reads them): that long before now.
///
/// Parsing keeps the form; `date(now:)` turns it into a date against a clock, so a server resolves `-5m` and `16:10`
/// with its own (movable) clock and time zone, the ones its records' times come from.
public struct TimePoint: Sendable, Hashable, CustomStringConvertible {
    /// How the point was written.
    enum Form: Sendable, Hashable {
        case absolute(Date)
        case ago(Duration)
        case timeOfDay(hour: Int, minute: Int, second: Int)
    }

    let form: Form

    /// The furthest back a relative time may reach: as far as the mock's clock can be moved (10 years).
    public static let maximumAgo = ClockMove.maximumOffset

    /// What is accepted, for messages.
    public static let forms = "a time of day (16:10 or 16:10:30, today in the server's time zone), an ISO 8601 time "
        + "with an offset or Z (2026-11-25T16:10:00Z) or a negative duration (-5m, -90s, -2h)"

    /// A fixed date.
    public init(_ date: Date) { form = .absolute(date) }

    init(form: Form) { self.form = form }

    /// The point as it can be typed back: `16:10:00`, `-5m`, or ISO 8601 UTC with milliseconds.
    public var description: String {
        switch form {
        case .absolute(let date): Timestamp.text(date)
        case .ago(let duration): "-" + DurationText.text(duration)
        case .timeOfDay(let hour, let minute, let second):
            [hour, minute, second].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
        }
    }

    /// The date the point stands for when it is `now` in `timeZone`.
    public func date(now: Date, timeZone: TimeZone = .current) -> Date {
        switch form {
        case .absolute(let date):
            return date
        case .ago(let duration):
            return now.addingTimeInterval(-DurationText.seconds(duration))
        case .timeOfDay(let hour, let minute, let second):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let midnight = calendar.startOfDay(for: now)
            return calendar.date(bySettingHour: hour, minute: minute, second: second, of: midnight)
                ?? midnight.addingTimeInterval(TimeInterval(hour * 3600 + minute * 60 + second))
        }
    }

    /// The point fixed to a date against `now`: what a server does once per query, so that every record of one
    /// answer is compared with the same bound.
    public func resolved(now: Date, timeZone: TimeZone = .current) -> TimePoint {
        TimePoint(date(now: now, timeZone: timeZone))
    }

    /// Reads `16:10`, `16:10:30`, `2026-11-25T16:10:00Z` (or with `+01:00`) or `-5m`; the problem's message follows
    /// the name of the option or parameter (`after: expected …`).
    public static func parse(_ text: String) -> Result<TimePoint, DurationText.Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("-") {
            switch DurationText.parse(String(trimmed.dropFirst()), maximum: maximumAgo) {
            case .success(let duration): return .success(TimePoint(form: .ago(duration)))
            case .failure(let problem): return .failure(Problem(message: "\(problem.message) (in '\(text)')"))
            }
        }
        if let time = timeOfDay(trimmed) { return time }
        if trimmed.first?.isNumber == true, trimmed.contains("T") || trimmed.contains("t") {
            let date =
                (try? Date(trimmed, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                ?? (try? Date(trimmed, strategy: Date.ISO8601FormatStyle()))
            guard let date else {
                return .failure(
                    Problem(
                        message: "'\(text)' is not an ISO 8601 time with an offset or Z, such as "
                            + "2026-11-25T16:10:00Z or 2026-11-25T17:10:00+01:00"))
            }
            return .success(TimePoint(date))
        }
        if DurationText.parse(trimmed, maximum: maximumAgo).isSuccess {
            return .failure(
                Problem(message: "a relative time is negative, before now: -\(trimmed) (got '\(text)')"))
        }
        return .failure(Problem(message: "expected \(forms); got '\(text)'"))
    }

    private typealias Problem = DurationText.Problem

    /// `HH:MM` or `HH:MM:SS`, each part two digits in range; `nil` when the text is not of that shape at all.
    private static func timeOfDay(_ text: String) -> Result<TimePoint, DurationText.Problem>? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        let (hour, minute, second) = (numbers[0], numbers[1], numbers.count == 3 ? numbers[2] : 0)
        guard numbers.count == parts.count, hour < 24, minute < 60, second < 60 else {
            return .failure(Problem(message: "'\(text)' is not a time of day from 00:00 to 23:59:59"))
        }
        return .success(TimePoint(form: .timeOfDay(hour: hour, minute: minute, second: second)))
    }
}

extension Result {
    /// Whether the result is a success.
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
