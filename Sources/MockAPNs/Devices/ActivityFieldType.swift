/// The type of one field of a `Codable` type, as written in a scenario: `String`, `Int`, `Double`, `Bool`,
/// `Date`, `URL`, `[T]`, `T?`, or a nested object (a mapping of fields).
///
/// The one type language of the scenario: an activity type's attributes and content state (`activityTypes`) and an
/// app's custom payload keys (`apps[].payload`) are written in it and decoded by `ActivityDecoder`.
public indirect enum ActivityFieldType: Sendable, Hashable {
    case string
    case int
    case double
    case bool
    case date
    case url
    /// `[T]`.
    case array(ActivityFieldType)
    /// A nested `Codable` struct: its fields in declaration order.
    case object([ActivityField])
    /// `T?`: a missing key or `null` decodes to nil.
    case optional(ActivityFieldType)

    /// The scalar type names a scenario may write, by name.
    public static let scalarNames: KeyValuePairs<String, ActivityFieldType> = [
        "String": .string, "Int": .int, "Double": .double, "Bool": .bool, "Date": .date, "URL": .url,
    ]

    /// The deepest a type may nest arrays and objects (a scenario's declaration, counting the type's own object).
    public static let maxDepth = 32

    /// How many arrays and objects the type nests (`[[Int]?]` is 2, `String` 0).
    var nesting: Int {
        switch self {
        case .string, .int, .double, .bool, .date, .url: 0
        case .optional(let wrapped): wrapped.nesting
        case .array(let element): 1 + element.nesting
        case .object(let fields): 1 + (fields.map(\.type.nesting).max() ?? 0)
        }
    }

    /// The type as a scenario writes it (`[Int?]?`); a nested object reads `object`.
    public var name: String {
        switch self {
        case .string: "String"
        case .int: "Int"
        case .double: "Double"
        case .bool: "Bool"
        case .date: "Date"
        case .url: "URL"
        case .array(let element): "[\(element.name)]"
        case .object: "object"
        case .optional(let wrapped): "\(wrapped.name)?"
        }
    }

    /// Why a type text does not read as a type.
    public struct SyntaxError: Error, Sendable, Hashable {
        /// What is wrong, with a suggestion when a known name is close.
        public var message: String
    }

    /// Reads a type text such as `String`, `Int?`, `[Date]`, `[[URL?]]?` (spaces around the brackets allowed).
    public static func parse(_ text: String) -> Result<ActivityFieldType, SyntaxError> {
        // Each `[` is one level of the recursion below: refuse a text deeper than any type may be before it starts.
        guard text.utf8.count(where: { $0 == UInt8(ascii: "[") }) <= maxDepth else {
            return .failure(SyntaxError(message: "a type nests arrays at most \(maxDepth) deep"))
        }
        var rest = Substring(text).trimmingSpaces
        var optional = false
        if rest.hasSuffix("?") {
            optional = true
            rest = rest.dropLast().trimmingSpaces
            guard !rest.hasSuffix("?") else {
                return .failure(SyntaxError(message: "'\(text)': one '?' makes a type optional; '??' is not allowed"))
            }
        }
        let base: ActivityFieldType
        if rest.hasPrefix("[") {
            guard rest.hasSuffix("]"), rest.count >= 2 else {
                return .failure(SyntaxError(message: "'\(text)': an array type is [T], such as [String]"))
            }
            switch parse(String(rest.dropFirst().dropLast())) {
            case .success(let element): base = .array(element)
            case .failure(let error): return .failure(error)
            }
        } else if let scalar = scalarNames.first(where: { $0.key == String(rest) }) {
            base = scalar.value
        } else {
            let known = scalarNames.map(\.key)
            let hint = NameSuggestion.hint(for: String(rest), among: known)
            let shown = rest.isEmpty ? "an empty type" : "unknown type '\(rest)'"
            return .failure(
                SyntaxError(
                    message: "\(shown)\(hint); a type is one of \(known.joined(separator: ", ")), [T], T?, "
                        + "or a mapping of fields"))
        }
        return .success(optional ? .optional(base) : base)
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
