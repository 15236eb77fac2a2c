import Foundation

/// A test on one matched value other than plain equality: the value operators of `match:`.
///
/// Written in a scenario as a one-key mapping in place of a literal: `{ regex: "…" }`, `{ exists: true }`,
/// `{ oneOf: [a, b] }`, `{ min: 1, max: 5 }` (one or both of min and max).
public enum MatchCondition: Sendable {
    /// The value's text contains a match of the pattern (unanchored: write `^…$` to match the whole value).
    case regex(MatchPattern)
    /// The value is present (`true`) or absent (`false`).
    case exists(Bool)
    /// The value equals one of these literals, compared as a literal `match` value is.
    case oneOf([JSONValue])
    /// The value is a number within the bounds (inclusive); at least one bound is set.
    case range(min: Double?, max: Double?)

    /// The operator names, in the order messages list them.
    static let operatorNames = ["regex", "exists", "oneOf", "min", "max", "equals"]

    /// Whether a payload mapping with these keys is an operator mapping rather than a literal object: any operator
    /// name among its keys, or a lone key that is a near miss of one (`regexp`, `exist`), which is refused.
    static func isOperatorMapping(keys: [String]) -> Bool {
        if keys.contains(where: operatorNames.contains) { return true }
        guard keys.count == 1 else { return false }
        return nearMiss(keys[0]) != nil
    }

    /// The operator name `key` is a typo of, if any: four characters or more within two edits, or the same name
    /// in another case (short literal keys such as `id` or `mix` stay literal).
    static func nearMiss(_ key: String) -> String? {
        if let same = operatorNames.first(where: { $0.lowercased() == key.lowercased() }), same != key { return same }
        guard key.count >= 4 else { return nil }
        return NameSuggestion.closestByEditDistance(to: key, among: operatorNames)
    }

    /// Whether a payload value (`nil` when the path is absent) passes the test.
    func matches(_ value: JSONValue?) -> Bool {
        switch self {
        case .exists(let present):
            return (value != nil) == present
        case .regex(let pattern):
            switch value {
            case .string(let text): return pattern.matches(text)
            case .number(let text): return pattern.matches(text)
            case .bool(let flag): return pattern.matches(flag ? "true" : "false")
            default: return false
            }
        case .oneOf(let literals):
            guard let value else { return false }
            return literals.contains { $0 == value || $0.scalarText == value.scalarText }
        case .range(let low, let high):
            guard case .number(let text) = value, let number = Double(text) else { return false }
            return Self.within(number, low, high)
        }
    }

    /// Whether a text value (a header, the token, topic or push type; `nil` when absent) passes the test.
    /// `caseInsensitive` compares `oneOf` literals ignoring case (tokens).
    func matches(text: String?, caseInsensitive: Bool = false) -> Bool {
        switch self {
        case .exists(let present):
            return (text != nil) == present
        case .regex(let pattern):
            guard let text else { return false }
            return pattern.matches(text)
        case .oneOf(let literals):
            guard let text else { return false }
            let wanted = caseInsensitive ? text.lowercased() : text
            return literals.contains { (caseInsensitive ? $0.scalarText.lowercased() : $0.scalarText) == wanted }
        case .range(let low, let high):
            guard let text, let number = Double(text) else { return false }
            return Self.within(number, low, high)
        }
    }

    private static func within(_ number: Double, _ low: Double?, _ high: Double?) -> Bool {
        guard number.isFinite else { return false }
        if let low, number < low { return false }
        if let high, number > high { return false }
        return true
    }

    /// A bound as written in files and messages: whole numbers without `.0` (`5`, `0.5`, `1e+300`).
    static func numberText(_ number: Double) -> String {
        guard number == number.rounded(), abs(number) < 1e15 else { return String(number) }
        return String(Int64(number))
    }

    /// The condition as a scenario file writes it.
    var scenarioJSON: JSONValue {
        switch self {
        case .regex(let pattern): return .object([("regex", .string(pattern.pattern))])
        case .exists(let present): return .object([("exists", .bool(present))])
        case .oneOf(let literals): return .object([("oneOf", .array(literals))])
        case .range(let low, let high):
            var members = [(String, JSONValue)]()
            if let low { members.append(("min", .number(Self.numberText(low)))) }
            if let high { members.append(("max", .number(Self.numberText(high)))) }
            return .object(members)
        }
    }
}

/// A `regex` operator's pattern, compiled once when the scenario loads.
///
/// `NSRegularExpression` is documented as safe to use for matching from several threads at once, and the pattern
/// is never mutated after `init`, so sharing it between connections is sound.
public final class MatchPattern: @unchecked Sendable {
    /// The longest pattern accepted, in UTF-8 bytes: a pattern is user input and its matching cost grows with it.
    public static let maximumLength = 1024

    /// The pattern as written.
    public let pattern: String
    private let expression: NSRegularExpression

    /// Compiles `pattern`; throws the compiler's error for an invalid one.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        self.expression = try NSRegularExpression(pattern: pattern)
    }

    /// Whether `pattern` repeats a group that itself repeats, such as `(a+)+` or `(a*)*`: on a long value that
    /// almost matches, a backtracking engine (ICU's, here) can take exponential time, and a rule's match runs for
    /// every push. Such patterns are refused when the scenario loads. A heuristic over the pattern's text: escapes
    /// and character classes are skipped; only `*`, `+` and `{n,}`-style repetition count, not `?`.
    public static func repeatsRepetition(_ pattern: String) -> Bool {
        let bytes = Array(pattern.utf8)
        // For each open group: whether something inside it repeats without bound.
        var groups: [Bool] = []
        var index = 0
        func isRepetition(at position: Int) -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "*"), UInt8(ascii: "+"): return true
            case UInt8(ascii: "{"):
                // {n,} or {n,m} with m > 1 repeats; {n} does not.
                var end = position + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "}") { end += 1 }
                guard end < bytes.count else { return false }
                let inside = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
                let parts = inside.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2 else { return false }
                return parts[1].isEmpty || (Int(parts[1]) ?? 0) > 1
            default: return false
            }
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 2
                continue
            case UInt8(ascii: "["):
                // A character class: skip to its closing bracket (a first `]` or `^]` is a member).
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                if isRepetition(at: index), !groups.isEmpty { groups[groups.count - 1] = true }
                continue
            case UInt8(ascii: "("):
                groups.append(false)
            case UInt8(ascii: ")"):
                let repeatsInside = groups.popLast() ?? false
                if isRepetition(at: index + 1) {
                    if repeatsInside { return true }
                    if !groups.isEmpty { groups[groups.count - 1] = true }
                } else if repeatsInside, !groups.isEmpty {
                    groups[groups.count - 1] = true
                }
            default:
                if isRepetition(at: index + 1), !groups.isEmpty { groups[groups.count - 1] = true }
            }
            index += 1
        }
        return false
    }

    /// Whether `text` contains a match.
    public func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// The request value a condition tests.
public enum MatchSubject: Sendable, Hashable {
    /// The device token.
    case token
    /// The `apns-topic` header.
    case topic
    /// The `apns-push-type` header as sent (absent when the request has none).
    case pushType
    /// A header by lower-case name.
    case header(String)
    /// A payload value by dotted path.
    case payload(String)

    /// Whether the subject needs the payload parsed.
    var isPayload: Bool {
        if case .payload = self { return true }
        return false
    }
}
