extension ActivitySchema {
    /// Activity types as a scenario file's `activityTypes:` section, in the given order.
    public static func scenarioJSON(_ types: [ActivitySchema]) -> JSONValue {
        .object(types.map { ($0.name, $0.scenarioJSON) })
    }

    /// The type as its entry under `activityTypes:`; `dateDecoding` is written only when it is not the default.
    public var scenarioJSON: JSONValue {
        var members: [(String, JSONValue)] = [
            ("attributes", ActivityField.scenarioJSON(attributes)),
            ("contentState", ActivityField.scenarioJSON(contentState)),
        ]
        if dateDecoding != .deferredToDate { members.append(("dateDecoding", .string(dateDecoding.rawValue))) }
        return .object(members)
    }
}

extension ActivityField {
    /// Fields as a scenario mapping: a type text where one exists, else a nested mapping (an object), a list of one
    /// (an array of objects) and a `?` after the name (an optional object).
    static func scenarioJSON(_ fields: [ActivityField]) -> JSONValue {
        .object(
            fields.map { field in
                if case .optional(let wrapped) = field.type, wrapped.containsObject {
                    return ("\(field.name)?", wrapped.scenarioJSON)
                }
                return (field.name, field.type.scenarioJSON)
            })
    }
}

extension ActivityFieldType {
    /// Whether a nested object is part of the type (which then has no type text).
    var containsObject: Bool {
        switch self {
        case .object: true
        case .array(let element), .optional(let element): element.containsObject
        default: false
        }
    }

    /// The type as a scenario writes it: its text, a mapping for an object, a list of one for an array of objects.
    var scenarioJSON: JSONValue {
        switch self {
        case .object(let fields): ActivityField.scenarioJSON(fields)
        case .array(let element) where containsObject: .array([element.scenarioJSON])
        default: .string(name)
        }
    }
}
