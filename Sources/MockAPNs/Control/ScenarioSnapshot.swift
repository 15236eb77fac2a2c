/// The scenario a server runs now, with the changes made at run time, as a scenario document.
public struct ScenarioSnapshot: Sendable {
    /// The scenario's name.
    public var name: String
    /// The document: the fields of a scenario file (name, activityTypes when there are any, environment,
    /// unknownDevices, unknownKeys, keys, apps, devices, rules) as JSON, which `loadScenario(yaml:)` and
    /// `PUT /v1/scenario` accept back.
    public var document: JSONValue

    /// A snapshot named `name` with `document`.
    public init(name: String, document: JSONValue) {
        self.name = name
        self.document = document
    }

    /// The snapshot of `world`, `rules` and the declared Live Activity types (written when there are any)
    /// under `name`.
    public init(name: String, world: World, rules: [ScriptedRule], activityTypes: [ActivitySchema] = []) {
        self.name = name
        let types: [(String, JSONValue)] =
            activityTypes.isEmpty ? [] : [("activityTypes", ActivitySchema.scenarioJSON(activityTypes))]
        self.document = .object(
            [("name", .string(name))] + types + world.scenarioMembers
                + [("rules", .array(rules.map(\.scenarioJSON)))])
    }
}
