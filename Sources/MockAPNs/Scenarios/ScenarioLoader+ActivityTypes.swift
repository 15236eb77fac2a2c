extension ScenarioLoader.Reader {
    /// The `activityTypes` mapping: Live Activity attributes types by their Swift name, in file order.
    func activityTypes(_ field: Field) throws(ScenarioError) -> [ActivitySchema] {
        var types = [ActivitySchema]()
        for (name, entry) in try field.freeMapping() {
            try checkName(name, of: entry, what: "an activity type", example: "mpushTaxiAttributes")
            let fields = try entry.mapping(known: ["attributes", "contentState", "dateDecoding"])
            var schema = ActivitySchema(name: name)
            if let attributes = fields["attributes"] {
                schema.attributes = try activityFields(attributes)
            }
            if let contentState = fields["contentState"] {
                schema.contentState = try activityFields(contentState)
            }
            if let dateDecoding = fields["dateDecoding"] {
                let text = try dateDecoding.string()
                guard let decoding = ActivityDateDecoding(rawValue: text) else {
                    let names = ActivityDateDecoding.allCases.map(\.rawValue)
                    throw dateDecoding.error(
                        "must be one of: \(names.joined(separator: ", ")); got \(dateDecoding.shortDescription)"
                            + NameSuggestion.hint(for: text, among: names))
                }
                schema.dateDecoding = decoding
            }
            types.append(schema)
        }
        return types
    }

    /// The fields of an attributes type, its content state, or a nested object: names to types, in file order; a
    /// name ending in `?` makes its field optional.
    func activityFields(_ field: Field) throws(ScenarioError) -> [ActivityField] {
        var fields = [ActivityField]()
        for (key, entry) in try field.freeMapping() {
            // `rider?: { name: String }`: a nested object has no type text to put a `?` on, so its name takes it.
            let optional = key.hasSuffix("?")
            let name = optional ? String(key.dropLast()) : key
            try checkName(name, of: entry, what: "a field", example: "status")
            let type = try activityFieldType(entry)
            if optional, case .optional = type {
                throw entry.error("'\(key)' is optional twice: put the '?' on the name or on the type, not both")
            }
            fields.append(ActivityField(name, optional ? .optional(type) : type))
        }
        return fields
    }

    /// A field's type: a type text (`String?`, `"[Int]?"`), a mapping (a nested object), or a one-element list
    /// (`[String]` unquoted is YAML's list of one: an array of that type).
    func activityFieldType(_ field: Field) throws(ScenarioError) -> ActivityFieldType {
        switch field.node {
        case .mapping:
            return .object(try activityFields(field))
        case .sequence:
            let elements = try field.list()
            guard elements.count == 1, let element = elements.first else {
                throw field.error(
                    "an array type names one element type, like [String]; got a list of \(elements.count)")
            }
            return .array(try activityFieldType(element))
        default:
            guard !field.isNull else {
                throw field.error("expected a type (String, Int, Double, Bool, Date, URL, [T], T?), got nothing")
            }
            switch ActivityFieldType.parse(try field.string()) {
            case .success(let type): return type
            case .failure(let problem): throw field.error(problem.message)
            }
        }
    }

    /// A type or field name: not empty, no spaces, no `?` (which marks an optional field, once, at the end).
    private func checkName(_ name: String, of entry: Field, what: String, example: String) throws(ScenarioError) {
        guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0 == "?" }) else {
            throw entry.error("\(what) needs a name without spaces or '?', like \(example); got \"\(name)\"")
        }
    }

    /// `attributesType` of a device: a declared activity type (any name when `declared` is `nil`), on a
    /// push-to-start token (the type it starts) or a live-activity token (the type of the activity the app already
    /// has when the run starts).
    func attributesType(_ field: Field, kind: Device.Kind, declared: [String]?) throws(ScenarioError) -> String {
        let name = try field.string()
        guard kind == .pushToStart || kind == .liveActivity else {
            throw field.error("attributesType applies only to a device whose kind is push-to-start or live-activity")
        }
        guard let declared, !declared.contains(name) else { return name }
        let known =
            declared.isEmpty
            ? "the scenario declares none (add them under activityTypes:)"
            : "declared: \(declared.joined(separator: ", "))"
        throw field.error(
            "unknown activity type '\(name)'\(NameSuggestion.hint(for: name, among: declared)); \(known)")
    }
}
