import Foundation

/// Times as the mock writes them: ISO 8601 text with milliseconds in UTC (journal records, scenario documents) and
/// whole milliseconds since the epoch (the `timestamp` of 410 answers). One implementation, so that a record's
/// time, an answer's timestamp and a saved scenario agree to the millisecond.
public enum Timestamp {
    /// Milliseconds since the epoch, rounded down (towards the past, also before 1970).
    static func millis(_ date: Date) -> Int64 {
        let millis = (date.timeIntervalSince1970 * 1000).rounded(.down)
        // A date a push carried (`stale-date: 1e20`) can be anything a Double holds: saturate at the years 1 and
        // 9999 rather than trap converting it, so any date prints (as one of those) and the arithmetic below holds.
        guard millis.isFinite else { return 0 }
        return Int64(min(max(millis, Self.earliestMillis), Self.latestMillis))
    }

    /// 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z in milliseconds since 1970: the dates `text` writes.
    static let earliestMillis: Double = -62_135_596_800_000
    static let latestMillis: Double = 253_402_300_799_999

    /// The time of day of `text`, UTC with milliseconds (`14:13:20.123`), for messages about one run.
    static func timeOfDay(_ date: Date) -> String {
        let full = text(date)
        guard let separator = full.firstIndex(of: "T") else { return full }
        return String(full[full.index(after: separator)...].dropLast())
    }

    /// ISO 8601 with milliseconds, UTC: `2026-09-21T14:13:20.123Z`, the milliseconds cut as `millis` cuts them.
    ///
    /// Written by hand: Foundation's ISO 8601 format style cost several microseconds per record, which the journal
    /// file and every control-API answer pay for each record.
    public static func text(_ date: Date) -> String {
        let millis = Self.millis(date)
        var seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let fraction = Int(millis - seconds * 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        seconds -= days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        var text = ""
        text.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            var digitsText = String(value)
            if digitsText.count < digits {
                digitsText = String(repeating: "0", count: digits - digitsText.count) + digitsText
            }
            text += digitsText
        }
        append(year, digits: 4)
        text += "-"
        append(month, digits: 2)
        text += "-"
        append(day, digits: 2)
        text += "T"
        append(seconds / 3600, digits: 2)
        text += ":"
        append(seconds / 60 % 60, digits: 2)
        text += ":"
        append(seconds % 60, digits: 2)
        text += "."
        append(Int64(fraction), digits: 3)
        text += "Z"
        return text
    }

    /// A text `text(_:)` wrote back as a date (ISO 8601, with or without fractional seconds; `nil` for other text).
    public static func date(fromText text: String) -> Date? {
        let parsed =
            (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
        guard let parsed else { return nil }
        // The text carries whole milliseconds and formatting truncates: place the date mid-millisecond, so that
        // a record read back writes the same text (binary floating point would otherwise lose one).
        let milliseconds = (parsed.timeIntervalSince1970 * 1000).rounded()
        return Date(timeIntervalSince1970: (milliseconds + 0.5) / 1000)
    }
}
