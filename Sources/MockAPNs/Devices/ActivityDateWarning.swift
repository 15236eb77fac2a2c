import Foundation

/// The warning for a `Date` that decodes but is wrong: "a Unix time (1.79e9) sent to a `deferredToDate` field
/// decodes to about 2057, and the phone shows a countdown to 2057. The push is applied, so the device part must
/// carry a warning naming the field and the decoded date whenever a decoded `Date` is more than a year from the
/// clock" (live-activities.md §1).
public enum ActivityDateWarning {
    /// How far from the clock a decoded date may be before it is reported: 365 days.
    public static let defaultThreshold: TimeInterval = 365 * 86_400

    /// One warning per date more than `threshold` from `now`, such as
    /// `content-state.timerEnd decodes to 2057-11-23: a Unix time sent to a deferredToDate field?`.
    public static func warnings(
        for dates: [ActivityDecodedDate], dateDecoding: ActivityDateDecoding, now: Date,
        threshold: TimeInterval = defaultThreshold
    ) -> [String] {
        dates.compactMap { decoded in
            let distance = decoded.date.timeIntervalSince(now)
            guard abs(distance) > threshold else { return nil }
            let guess =
                likelyMistake(dateDecoding: dateDecoding, future: distance > 0)
                ?? "more than \(spanText(threshold)) \(distance > 0 ? "ahead of" : "before") the clock"
            return "\(decoded.path) decodes to \(dayText(decoded.date)): \(guess)"
        }
    }

    /// The usual mix-up behind a date far in the future or past under `dateDecoding`, when there is one.
    static func likelyMistake(dateDecoding: ActivityDateDecoding, future: Bool) -> String? {
        switch (dateDecoding, future) {
        // 1.79e9 seconds after 2001 instead of after 1970: 31 years late.
        case (.deferredToDate, true): "a Unix time sent to a deferredToDate field?"
        // Seconds since 2001 read as since 1970: 31 years early.
        case (.secondsSince1970, false): "seconds since 2001 sent to a secondsSince1970 field?"
        // Milliseconds read as seconds: tens of thousands of years late.
        case (.secondsSince1970, true): "milliseconds sent to a secondsSince1970 field?"
        // Seconds read as milliseconds: a few weeks after 1970.
        case (.millisecondsSince1970, false): "seconds sent to a millisecondsSince1970 field?"
        default: nil
        }
    }

    /// `365 days` for whole days, else as `DurationText` writes it (`1h`).
    static func spanText(_ threshold: TimeInterval) -> String {
        guard threshold.isFinite, abs(threshold) < 1e12 else { return "\(threshold) seconds" }
        if threshold >= 86_400, threshold.truncatingRemainder(dividingBy: 86_400) == 0 {
            return "\(Int(threshold / 86_400)) days"
        }
        return DurationText.text(.milliseconds(Int64((threshold * 1000).rounded())))
    }

    /// The day `date` falls on, `2057-11-23`, for dates from year 1 to 9999; others by their side of that range.
    static func dayText(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        // 0001-01-01T00:00:00Z and the end of 9999: Timestamp's arithmetic holds well beyond both.
        if seconds < -62_135_596_800 { return "a date before the year 1" }
        if seconds > 253_402_300_799 { return "a date after the year 9999" }
        return String(Timestamp.text(date).prefix(10))
    }
}
