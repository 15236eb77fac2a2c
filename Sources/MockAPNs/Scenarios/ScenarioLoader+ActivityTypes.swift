extension ScenarioLoader.Reader {
    /// The `activityTypes` mapping: Live Activity attributes types by their Swift name, in file order.
    func activityTypes(_ field: Field) throws(ScenarioError) -> [ActivitySchema] {
        var types = [ActivitySchema]()
        for (name, entry) in try field.freeMapping() {
            try checkTypeName(name, of: entry, what: "an activity type", example: "mpushTaxiAttributes")
            let fields = try entry.mapping(known: ["attributes", "contentState", "dateDecoding"])
            var schema = ActivitySchema(name: name)
            if let attributes = fields["attributes"] {
                schema.attributes = try codableFields(attributes)
            }
            if let contentState = fields["contentState"] {
                schema.contentState = try codableFields(contentState)
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
