import Foundation

/// A move of the mock's clock, as `POST /v1/clock` takes it: `{"advance": "9h"}`, `{"set": "2026-11-22T18:00:00Z"}`
/// or `{"reset": true}`.
public enum ClockMove: Sendable, Hashable {
    /// Forward by a duration (back when it is negative: `-5m`).
    case advance(Duration)
    /// To a time.
    case set(Date)
    /// Back to real time (offset zero).
    case reset

    /// How far the clock may be from real time, either way: ten years of 365.25 days (87660h). Far enough for any
    /// lifetime APNs or a phone applies, near enough that every date stays an ordinary one.
    public static let maximumOffset = Duration.seconds(315_576_000)

    /// The members a body may have; it must have exactly one.
    static let members = ["advance", "set", "reset"]

    /// The offset after this move from `offset`, where `base` is the time at offset zero; an `InputError` naming the
    /// field when the result would pass `maximumOffset` either way.
    public func offset(from offset: Duration, base: Date) throws(InputError) -> Duration {
        let next: Duration
        let field: String
        switch self {
        case .advance(let duration):
            (next, field) = (offset + duration, "advance")
        case .set(let date):
            (next, field) = (Self.duration(date.timeIntervalSince(base)), "set")
        case .reset:
            return .zero
        }
        guard next <= Self.maximumOffset, next >= .zero - Self.maximumOffset else {
            throw InputError(
                "\(field): the clock would be \(ClockReading.offsetText(next)) from real time; it may be at most "
                    + "\(DurationText.text(Self.maximumOffset)) (10 years) either way")
        }
        return next
    }

    /// Reads a `POST /v1/clock` body; an `InputError` naming the field for anything else.
    public init(json text: String) throws(InputError) {
        let example = "send one of {\"advance\": \"9h\"}, {\"set\": \"2026-11-22T18:00:00Z\"} or {\"reset\": true}"
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw InputError("the body is not JSON (\(error)); \(example)")
        }
        guard let members = json.objectMembers else { throw InputError("the body must be a JSON object; \(example)") }
        for (name, _) in members where !Self.members.contains(name) {
            throw InputError(
                "unknown field '\(name)'\(NameSuggestion.hint(for: name, among: Self.members)); \(example)")
        }
        guard members.count == 1, let (name, value) = members.first else {
            throw InputError("give exactly one of advance, set or reset, got \(members.count); \(example)")
        }
        switch name {
        case "advance":
            guard let text = value.stringValue else {
                throw InputError(
                    "advance: expected a duration such as \"9h\", \"90m\" or \"-5m\", got \(value.jsonText)")
            }
            self = .advance(try Self.signedDuration(text, name: "advance"))
        case "set":
            guard let text = value.stringValue, let date = Timestamp.date(fromText: text) else {
                throw InputError(
                    "set: expected an ISO 8601 time such as \"2026-11-22T18:00:00Z\" or \"2026-11-22T18:00:00.250Z\", "
                        + "got \(value.jsonText)")
            }
            self = .set(date)
        default:
            guard value == .bool(true) else { throw InputError("reset: expected true, got \(value.jsonText)") }
            self = .reset
        }
    }

    /// The move as a `POST /v1/clock` body.
    public var json: JSONValue {
        switch self {
        case .advance(let duration): .object([("advance", .string(ClockReading.offsetText(duration)))])
        case .set(let date): .object([("set", .string(Timestamp.text(date)))])
        case .reset: .object([("reset", .bool(true))])
        }
    }

    /// Reads a duration that may start with `-` (`9h`, `1.5s`, `-5m`), at most `maximumOffset` either way.
    public static func signedDuration(_ text: String, name: String) throws(InputError) -> Duration {
        let negative = text.hasPrefix("-")
        switch DurationText.parse(negative ? String(text.dropFirst()) : text, maximum: maximumOffset) {
        case .success(let duration): return negative ? .zero - duration : duration
        case .failure(let problem): throw InputError("\(name): \(problem.message)")
        }
    }

    /// `seconds` as a `Duration`, saturating far outside `maximumOffset` instead of trapping.
    static func duration(_ seconds: TimeInterval) -> Duration {
        let limit = 1e12
        let bounded = seconds.isNaN ? 0 : min(max(seconds, -limit), limit)
        return .microseconds(Int64((bounded * 1e6).rounded()))
    }
}
