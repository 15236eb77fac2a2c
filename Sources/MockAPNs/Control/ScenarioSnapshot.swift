/// The scenario a server runs now, with the changes made at run time, as a scenario document.
public struct ScenarioSnapshot: Sendable {
    /// The scenario's name.
    public var name: String
    /// The document: the fields of a scenario file (name, environment, unknownDevices, unknownKeys, keys, apps,
    /// devices, rules, and checks when there are any) as JSON, which `loadScenario(yaml:)` and `PUT /v1/scenario` accept back.
    public var document: JSONValue

    /// A snapshot named `name` with `document`.
    public init(name: String, document: JSONValue) {
        self.name = name
        self.document = document
    }

    /// The snapshot of `world`, `rules` and `checks` under `name`; `checks:` is left out when there are none.
    public init(name: String, world: World, rules: [ScriptedRule], checks: [ProviderCheck] = []) {
        self.name = name
        var members = [("name", JSONValue.string(name))] + world.scenarioMembers
        members.append(("rules", .array(rules.map(\.scenarioJSON))))
        if !checks.isEmpty { members.append(("checks", .array(checks.map(\.scenarioJSON)))) }
        self.document = .object(members)
    }
}
