/// The scenario a server runs now, with the changes made at run time, as a scenario document.
public struct ScenarioSnapshot: Sendable {
    /// The scenario's name.
    public var name: String
    /// The document: the fields of a scenario file (name, environment, unknownDevices, unknownKeys, keys, apps,
    /// devices, rules, expect, unexpected) as JSON, which `loadScenario(yaml:)` and `PUT /v1/scenario` accept back.
    public var document: JSONValue

    /// A snapshot named `name` with `document`.
    public init(name: String, document: JSONValue) {
        self.name = name
        self.document = document
    }

    /// The snapshot of `world`, `rules` and the expectations under `name`; `expect:` is written when there are
    /// expectations and `unexpected:` when it is `fail`.
    public init(
        name: String, world: World, rules: [ScriptedRule], expectations: [ScenarioExpectation] = [],
        unexpected: UnexpectedRequests = .allow
    ) {
        self.name = name
        var members = [("name", JSONValue.string(name))] + world.scenarioMembers
        members.append(("rules", .array(rules.map(\.scenarioJSON))))
        if !expectations.isEmpty { members.append(("expect", .array(expectations.map(\.scenarioJSON)))) }
        if unexpected != .allow { members.append(("unexpected", .string(unexpected.rawValue))) }
        self.document = .object(members)
    }
}
