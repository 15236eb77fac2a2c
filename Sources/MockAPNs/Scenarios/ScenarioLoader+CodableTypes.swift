extension ScenarioLoader.Reader {
    /// The most fields one declaration may have, nested objects' fields included: an `activityTypes` attributes or
    /// content state, or an app's custom keys for one push type (`apps[].payload`). It also bounds the work of a
    /// declaration that repeats a YAML alias.
    static let codableFieldLimit = 1_000

    /// The fields of a `Codable` type as a scenario declares them, in the type language of live-activities.md §1:
    /// names to types, in file order; a name ending in `?` makes its field optional. `activityTypes` (attributes and
    /// content state) and `apps[].payload` (an app's custom keys) both read theirs here.
    func codableFields(_ field: Field) throws(ScenarioError) -> [ActivityField] {
        var count = 0
        return try codableFields(field, depth: 1, count: &count)
    }

    /// The fields of an object nested `depth` deep, with `count` fields read so far in the declaration.
    private func codableFields(_ field: Field, depth: Int, count: inout Int) throws(ScenarioError) -> [ActivityField] {
        var fields = [ActivityField]()
        for (key, entry) in try field.freeMapping() {
            count += 1
            guard count <= Self.codableFieldLimit else {
                throw entry.error("a type declares at most \(Self.codableFieldLimit) fields, nested ones included")
            }
            // `rider?: { name: String }`: a nested object has no type text to put a `?` on, so its name takes it.
            let optional = key.hasSuffix("?")
            let name = optional ? String(key.dropLast()) : key
            try checkTypeName(name, of: entry, what: "a field", example: "status")
            guard !fields.contains(where: { $0.name == name }) else {
                throw entry.error("the field \(name) is declared twice")
            }
            let type = try codableFieldType(entry, depth: depth, count: &count)
            if optional, case .optional = type {
                throw entry.error("'\(key)' is optional twice: put the '?' on the name or on the type, not both")
            }
            fields.append(ActivityField(name, optional ? .optional(type) : type))
        }
        return fields
    }

    /// A field's type: a type text (`String?`, `"[Int]?"`), a mapping (a nested object), or a one-element list
    /// (`[String]` unquoted is YAML's list of one: an array of that type). `depth` is the nesting of the object
    /// that holds the field; arrays and objects may nest `ActivityFieldType.maxDepth` deep in all.
    private func codableFieldType(_ field: Field, depth: Int, count: inout Int) throws(ScenarioError)
        -> ActivityFieldType
    {
        func tooDeep() -> ScenarioError {
            field.error("types nest arrays and objects at most \(ActivityFieldType.maxDepth) deep")
        }
        switch field.node {
        case .mapping:
            guard depth < ActivityFieldType.maxDepth else { throw tooDeep() }
            return .object(try codableFields(field, depth: depth + 1, count: &count))
        case .sequence:
            guard depth < ActivityFieldType.maxDepth else { throw tooDeep() }
            let elements = try field.list()
            guard elements.count == 1, let element = elements.first else {
                throw field.error(
                    "an array type names one element type, like [String]; got a list of \(elements.count)")
            }
            return .array(try codableFieldType(element, depth: depth + 1, count: &count))
        default:
            guard !field.isNull else {
                throw field.error("expected a type (String, Int, Double, Bool, Date, URL, [T], T?), got nothing")
            }
            switch ActivityFieldType.parse(try field.string()) {
            case .success(let type):
                guard depth + type.nesting <= ActivityFieldType.maxDepth else { throw tooDeep() }
                return type
            case .failure(let problem): throw field.error(problem.message)
            }
        }
    }

    /// A type or field name: not empty, no spaces, no `?` (which marks an optional field, once, at the end).
    func checkTypeName(_ name: String, of entry: Field, what: String, example: String) throws(ScenarioError) {
        guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0 == "?" }) else {
            throw entry.error("\(what) needs a name without spaces or '?', like \(example); got \"\(name)\"")
        }
    }
}
