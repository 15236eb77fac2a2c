/// A JSON value, for payloads, journal records and control answers.
///
/// Numbers keep their text so that a payload is recorded exactly as the provider wrote it (no `1.0` for `1`).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in their original order; JSON objects with duplicate keys keep every member.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b || (Double(a) != nil && Double(a) == Double(b))
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(Double(n) ?? 0)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let members):
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// The member named `key` of an object (the first one, if the object repeats it).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Follows a dotted path such as `aps.alert.title`; array elements are addressed by index (`items.0`).
    public func value(atPath path: some StringProtocol) -> JSONValue? {
        var current: JSONValue? = self
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object:
                current = current?[String(component)]
            case .array(let elements):
                guard let index = Int(component), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as a `Double`, if this is a number.
    public var doubleValue: Double? {
        if case .number(let n) = self { return Double(n) }
        return nil
    }

    /// The members, if this is an object.
    public var objectMembers: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// How the value reads in a scalar comparison: strings as themselves, other scalars as their JSON text.
    public var scalarText: String {
        switch self {
        case .string(let s): s
        default: jsonText
        }
    }

    /// Compact JSON text.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends compact JSON text to `out`.
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSONText.appendQuoted(s, to: &out)
        case .array(let elements):
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSONText.appendQuoted(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
    public init(nilLiteral: ()) { self = .null }
}
