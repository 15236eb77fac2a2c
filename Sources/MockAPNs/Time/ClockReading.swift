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

    /// `{"now": "2026-11-23T21:00:00.000Z", "unix": 1795467600.0, "offset": "9h"}`: ISO 8601 with milliseconds,
    /// seconds since 1970 with milliseconds, and the offset as a duration text.
    public var json: JSONValue {
        .object([
            ("now", .string(Timestamp.text(now))),
            ("unix", .number(String(Double(Timestamp.millis(now)) / 1000))),
            ("offset", .string(Self.offsetText(offset))),
        ])
    }

    /// A reading from its `json`, or `nil` when it is not one.
    public init?(json: JSONValue) {
        guard let nowText = json["now"]?.stringValue, let now = Timestamp.date(fromText: nowText),
            let offsetText = json["offset"]?.stringValue,
            let offset = try? ClockMove.signedDuration(offsetText, name: "offset")
        else { return nil }
        self.init(now: now, offset: offset)
    }

    /// `0s`, `9h`, `90m` as `5400s`, `-5m`, `1.5s`, `250ms`: `DurationText`'s text with a sign.
    public static func offsetText(_ offset: Duration) -> String {
        if offset == .zero { return "0s" }
        return offset < .zero ? "-" + DurationText.text(.zero - offset) : DurationText.text(offset)
    }
}
