import Foundation

/// Values that decode as a type's attributes and content state: what `serve`'s banner puts in the push-to-start
/// command it prints, so that the command starts an activity as pasted.
extension ActivitySchema {
    /// An `attributes` object with a value for every field (optional ones too) that decodes as this type's.
    public func exampleAttributes(at now: Date) -> JSONValue {
        Self.example(of: attributes, dateDecoding: dateDecoding, now: now)
    }

    /// A `content-state` object with a value for every field that decodes as this type's `ContentState`.
    public func exampleContentState(at now: Date) -> JSONValue {
        Self.example(of: contentState, dateDecoding: dateDecoding, now: now)
    }

    private static func example(of fields: [ActivityField], dateDecoding: ActivityDateDecoding, now: Date)
        -> JSONValue
    {
        .object(fields.map { ($0.name, example(of: $0.type, dateDecoding: dateDecoding, now: now)) })
    }

    private static func example(of type: ActivityFieldType, dateDecoding: ActivityDateDecoding, now: Date)
        -> JSONValue
    {
        switch type {
        case .string: return .string("example")
        case .int: return .number("1")
        case .double: return .number("1.5")
        case .bool: return .bool(true)
        case .url: return .string("https://example.com")
        case .array(let element): return .array([example(of: element, dateDecoding: dateDecoding, now: now)])
        case .object(let fields): return example(of: fields, dateDecoding: dateDecoding, now: now)
        case .optional(let wrapped): return example(of: wrapped, dateDecoding: dateDecoding, now: now)
        case .date:
            // Now, in the type's encoding: a date far away would draw the phone's date warning.
            switch dateDecoding {
            case .deferredToDate: return .number(String(Int64(now.timeIntervalSinceReferenceDate)))
            case .secondsSince1970: return .number(String(Int64(now.timeIntervalSince1970)))
            case .millisecondsSince1970: return .number(String(Int64(now.timeIntervalSince1970) * 1000))
            case .iso8601: return .string(Date.ISO8601FormatStyle().format(now))
            }
        }
    }
}
