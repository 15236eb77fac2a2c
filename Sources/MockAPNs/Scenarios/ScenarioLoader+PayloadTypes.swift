extension ScenarioLoader.Reader {
    /// `apps[].payload`: push type names (`alert`, `voip`) to the custom keys the app's code reads from such pushes,
    /// with their types (phone.md §3), in the type language of `activityTypes` (`codableFields`).
    ///
    /// ```yaml
    /// payload: { alert: { orderID: String, deepLink: URL? }, voip: { callID: String, caller: String? } }
    /// ```
    func payloadTypes(_ field: Field) throws(ScenarioError) -> AppPayloadTypes? {
        var types = AppPayloadTypes()
        for (name, entry) in try field.freeMapping() {
            guard AppPayloadTypes.pushTypes.contains(name) else {
                let problem =
                    switch name {
                    case "liveactivity":
                        "a Live Activity's content-state is typed by its type under activityTypes:, not here"
                    case "mdm": "an MDM push is read by the system, not by the app's code"
                    default:
                        "unknown push type '\(name)'"
                            + NameSuggestion.hint(for: name, among: AppPayloadTypes.pushTypes)
                    }
                throw entry.error(
                    "\(problem); payload takes the push types \(AppPayloadTypes.pushTypes.joined(separator: ", "))")
            }
            let fields = try codableFields(entry)
            if fields.contains(where: { $0.name == "aps" }) {
                throw entry.error("aps is Apple's dictionary, not a custom key: declare the keys beside it")
            }
            types.fields[name] = fields
        }
        return types.fields.isEmpty ? nil : types
    }
}

extension AppPayloadTypes {
    /// The declaration as an `apps:` entry's `payload:` mapping, push types in `pushTypes` order.
    var scenarioJSON: JSONValue {
        .object(Self.pushTypes.compactMap { name in fields[name].map { (name, ActivityField.scenarioJSON($0)) } })
    }
}
