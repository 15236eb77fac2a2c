import Foundation

/// Decodes a JSON value into an activity type's fields with Swift's default `JSONDecoder` rules, as the phone
/// does with `aps.attributes` and `aps.content-state`.
///
/// "a missing non-optional key, a wrong JSON type, or an unknown date encoding makes the update fail ... Extra keys
/// are ignored (default Codable)" (live-activities.md §1, doc/seen). The rules, each checked against Foundation's
/// own decoder by `ActivityDecoderDifferentialTests`:
/// - fields decode in declaration order and the first failure is the one reported, as a synthesized
///   `init(from:)` does; a key given twice counts once, with its first value;
/// - a missing key or `null` is nil for an optional and an error otherwise (`keyNotFound`, `valueNotFound`);
/// - `String`, `Bool`, arrays and objects take only their own JSON type (`Bool` refuses `0` and `1`);
/// - `Int` and `Double` follow `SwiftJSONNumber`; `URL` is a string `URL(string:)` accepts;
/// - `Date` follows the type's `ActivityDateDecoding`.
public struct ActivityDecoder: Sendable {
    public var dateDecoding: ActivityDateDecoding

    public init(dateDecoding: ActivityDateDecoding = .deferredToDate) {
        self.dateDecoding = dateDecoding
    }

    /// Decodes `value`, an object, into `fields`; `path` names it in errors and dates (`content-state`).
    public func decode(_ value: JSONValue, as fields: [ActivityField], at path: String) -> ActivityDecodeResult {
        var dates = [ActivityDecodedDate]()
        do {
            try decode(value, as: .object(fields), at: path, dates: &dates)
        } catch {
            return .failed(error)
        }
        return .decoded(dates: dates)
    }

    private func decode(
        _ value: JSONValue, as type: ActivityFieldType, at path: String, dates: inout [ActivityDecodedDate]
    ) throws(ActivityDecodeError) {
        if case .optional(let wrapped) = type {
            if value == .null { return }
            return try decode(value, as: wrapped, at: path, dates: &dates)
        }
        if value == .null {
            throw ActivityDecodeError(path: path, kind: .valueNotFound, message: "expected \(type.name), found null")
        }
        func mismatch(_ expected: String) -> ActivityDecodeError {
            ActivityDecodeError(
                path: path, kind: .typeMismatch, message: "expected \(expected), found \(Self.jsonType(value))")
        }
        func corrupted(_ message: String) -> ActivityDecodeError {
            ActivityDecodeError(path: path, kind: .dataCorrupted, message: message)
        }
        switch (type, value) {
        case (.string, .string), (.bool, .bool):
            return
        case (.int, .number(let text)):
            guard SwiftJSONNumber.int(text) != nil else { throw corrupted("number \(text) does not fit in Int") }
        case (.double, .number(let text)):
            guard SwiftJSONNumber.double(text) != nil else { throw corrupted("number \(text) does not fit in Double") }
        case (.url, .string(let text)):
            guard URL(string: text) != nil else {
                throw corrupted("invalid URL string \(JSONValue.string(text).jsonText)")
            }
        case (.date, _):
            let decoded = try date(value, mismatch: mismatch, corrupted: corrupted)
            dates.append(ActivityDecodedDate(path: path, date: decoded))
        case (.array(let element), .array(let elements)):
            for (index, item) in elements.enumerated() {
                try decode(item, as: element, at: "\(path)[\(index)]", dates: &dates)
            }
        case (.object(let fields), .object):
            for field in fields {
                let key = path.isEmpty ? field.name : "\(path).\(field.name)"
                guard let member = value[field.name] else {
                    if case .optional = field.type { continue }
                    throw ActivityDecodeError(path: key, kind: .keyNotFound, message: "missing required key")
                }
                try decode(member, as: field.type, at: key, dates: &dates)
            }
        case (.object, _):
            throw mismatch("an object")
        default:
            throw mismatch(type.name)
        }
    }

    /// A `Date` under `dateDecoding`.
    private func date(
        _ value: JSONValue, mismatch: (String) -> ActivityDecodeError, corrupted: (String) -> ActivityDecodeError
    ) throws(ActivityDecodeError) -> Date {
        if dateDecoding == .iso8601 {
            guard case .string(let text) = value else { throw mismatch("Date as an ISO 8601 string (iso8601)") }
            guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                throw corrupted("expected an ISO 8601 date string (iso8601), found \(value.jsonText)")
            }
            return date
        }
        let unit =
            switch dateDecoding {
            case .deferredToDate: "Date as seconds since 2001-01-01 (deferredToDate)"
            case .secondsSince1970: "Date as seconds since 1970 (secondsSince1970)"
            case .millisecondsSince1970, .iso8601: "Date as milliseconds since 1970 (millisecondsSince1970)"
            }
        guard case .number(let text) = value else { throw mismatch(unit) }
        guard let number = SwiftJSONNumber.double(text) else {
            throw corrupted("number \(text) does not fit in Double")
        }
        switch dateDecoding {
        case .deferredToDate: return Date(timeIntervalSinceReferenceDate: number)
        case .secondsSince1970: return Date(timeIntervalSince1970: number)
        case .millisecondsSince1970, .iso8601: return Date(timeIntervalSince1970: number / 1000)
        }
    }

    /// The JSON type of `value` in a "found ..." message.
    static func jsonType(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
