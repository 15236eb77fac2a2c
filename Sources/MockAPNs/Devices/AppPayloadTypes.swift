/// The custom keys an app's code reads from its pushes, per push type (phone.md §3, `apps[].payload`): the siblings
/// of `aps` and their JSON types, in the type language of `activityTypes` (`ActivityFieldType`).
///
/// "`payload` types the custom keys (siblings of `aps`), decoded with default `JSONDecoder` rules ... A mismatch adds
/// the warning `payload-type`: iOS still shows or launches it; the app's code fails" (phone.md §3; doc, `Codable`
/// defaults). `problem(in:pushType:)` decodes with `ActivityDecoder`, the decoder of Live Activity content states.
public struct AppPayloadTypes: Sendable, Hashable {
    /// The push types whose custom keys an app may type, in `APNsPushType.all`'s order: not `liveactivity` (its
    /// content state is typed under `activityTypes`) and not `mdm` (the system reads it, not the app's code).
    public static let pushTypes = APNsPushType.all.map(\.name).filter { $0 != "liveactivity" && $0 != "mdm" }

    /// The custom keys' types by push type name (`alert`, `voip`), each in declaration order.
    public var fields: [String: [ActivityField]]

    /// The keys `fields` types, by push type name.
    public init(_ fields: [String: [ActivityField]] = [:]) {
        self.fields = fields
    }

    /// Why the custom keys of `payload`, a push of `pushType`, do not decode into the declared types, as
    /// `JSONDecoder` would fail (`orderID: expected String, found number`); a missing key that the payload has
    /// elsewhere says where (`callerName: missing required key; found at data.callerName`), or where a key that differs
    /// only in case is (`orderID: missing required key; found orderId at orderId, in another case`: `Codable`
    /// matches keys exactly). `nil` when they decode,
    /// when the push type declares no keys, or when the payload is not a JSON object.
    func problem(in payload: JSONValue?, pushType: String) -> String? {
        guard let declared = fields[pushType], let payload, case .object = payload,
            let error = ActivityDecoder().decode(payload, as: declared, at: "").error
        else { return nil }
        guard error.kind == .keyNotFound, let key = Self.key(missingAt: error.path, in: declared),
            let found = Self.place(of: key, in: payload)
        else { return error.description }
        guard found.name != key else { return "\(error.description); found at \(found.path)" }
        return "\(error.description); found \(found.name) at \(found.path), in another case"
    }

    /// The declared field name that `path` (`callerName`, `order.id`, `items[2].name`) ends with: the longest, as a
    /// name may hold a dot.
    private static func key(missingAt path: String, in fields: [ActivityField]) -> String? {
        var names: [String] = []
        func collect(_ fields: [ActivityField]) {
            for field in fields {
                names.append(field.name)
                if let nested = objectFields(of: field.type) { collect(nested) }
            }
        }
        collect(fields)
        return names.filter { path == $0 || path.hasSuffix("." + $0) }.max { $0.count < $1.count }
    }

    /// The fields of the object a type holds, through optionals and arrays (`[Order]?`); `nil` for a scalar.
    private static func objectFields(of type: ActivityFieldType) -> [ActivityField]? {
        switch type {
        case .object(let fields): fields
        case .optional(let wrapped), .array(let wrapped): objectFields(of: wrapped)
        default: nil
        }
    }

    /// Where `key` is a member of an object in `payload`, the shallowest first (`data.callerName`,
    /// `aps.callerName`, `items[0].callerName`), else the shallowest member whose name differs from it only in case;
    /// `nil` when there is neither. A breadth-first walk of the parsed payload, which APNs's size limit keeps small.
    private static func place(of key: String, in payload: JSONValue) -> (name: String, path: String)? {
        let folded = key.lowercased()
        var otherCase: (name: String, path: String)?
        var level: [(path: String, value: JSONValue)] = [("", payload)]
        while !level.isEmpty {
            var next: [(path: String, value: JSONValue)] = []
            for (path, value) in level {
                switch value {
                case .object(let members):
                    for (name, member) in members {
                        let at = path.isEmpty ? name : "\(path).\(name)"
                        if name == key { return (name, at) }
                        if otherCase == nil, name.lowercased() == folded { otherCase = (name, at) }
                        next.append((at, member))
                    }
                case .array(let elements):
                    for (index, element) in elements.enumerated() { next.append(("\(path)[\(index)]", element)) }
                default:
                    break
                }
            }
            level = next
        }
        return otherCase
    }
}
