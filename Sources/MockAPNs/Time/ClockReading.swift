import Foundation

/// The mock's clock at one moment, as `GET /v1/clock` answers it: the time, and how far it is from real time.
public struct ClockReading: Sendable, Hashable {
    /// The time the mock records and decides with.
    public var now: Date
    /// How far `now` is from real time (from the start date for a `ManualClock`); negative when behind.
    public var offset: Duration

    /// A reading of `now` at `offset`.
    public init(now: Date, offset: Duration) {
        self.now = now
        self.offset = offset
    }

    /// `0s`, `9h`, `90m` as `5400s`, `-5m`, `1.5s`, `250ms`: `DurationText`'s text with a sign.
    public static func offsetText(_ offset: Duration) -> String {
        if offset == .zero { return "0s" }
        return offset < .zero ? "-" + DurationText.text(.zero - offset) : DurationText.text(offset)
    }
}

extension ClockReading: JSONMapped {
    /// `{"now": "2026-11-23T21:00:00.000Z", "unix": 1795467600.0, "offset": "9h"}`: ISO 8601 with milliseconds,
    /// seconds since 1970 with milliseconds (written, not read), and the offset as a duration text.
    public static let jsonMapping = JSONMapping<ClockReading, ClockReading>(
        ClockReading(now: .distantPast, offset: .zero),
        [
            .member("now", \.now, .timestamp, required: true),
            .written("unix") { .number(String(Double(Timestamp.millis($0.now)) / 1000)) },
            .member("offset", \.offset, .offset, required: true),
        ])
}

extension JSONForm where T == Duration {
    /// A clock offset: `0s`, `9h`, `-5m` (`ClockReading.offsetText`), read as `ClockMove.signedDuration` reads it.
    static var offset: JSONForm {
        JSONForm(
            write: { .string(ClockReading.offsetText($0)) },
            read: { json in json.stringValue.flatMap { try? ClockMove.signedDuration($0, name: "offset") } })
    }
}
