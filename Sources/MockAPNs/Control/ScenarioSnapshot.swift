/// The scenario a server runs now, with the changes made at run time, as a scenario document.
public struct ScenarioSnapshot: Sendable {
    /// The scenario's name.
    public var name: String
    /// The document: the fields of a scenario file as JSON, which `loadScenario(yaml:)` and `PUT /v1/scenario`
    /// accept back: name, activityTypes, liveActivity, environment, unknownDevices, unknownKeys, keys, apps,
    /// devices, fidelity, simulation, phones, rules, expect, unexpected, checks, tokenUpload and channels (the optional
    /// declarations only when set).
    public var document: JSONValue

    /// A snapshot named `name` with `document`.
    public init(name: String, document: JSONValue) {
        self.name = name
        self.document = document
    }

    /// The snapshot of `world` and `rules` under `name`, with what `declarations` declares beside them that does
    /// not change at run time: its Live Activity types and phone settings, expectations, `unexpected` policy,
    /// provider checks and token upload, each written only when set (the phone settings only those that differ
    /// from the defaults). A new declarative section of the scenario is written here.
    public init(name: String, world: World, rules: [ScriptedRule], declarations: Scenario? = nil) {
        self.name = name
        var members = [("name", JSONValue.string(name))]
        if let types = declarations?.declaredActivityTypes, !types.isEmpty {
            members.append(("activityTypes", ActivitySchema.scenarioJSON(types)))
        }
        if let settings = declarations?.liveActivity, settings != LiveActivitySettings() {
            members.append(("liveActivity", settings.scenarioJSON))
        }
        members += world.scenarioMembers
        if let phones = declarations?.phones, !phones.isEmpty {
            let sorted = phones.sorted { $0.key < $1.key }
            members.append(("phones", .object(sorted.map { ($0.key, $0.value.scenarioJSON) })))
        }
        members.append(("rules", .array(rules.map(\.scenarioJSON))))
        if let declarations {
            if !declarations.expectations.isEmpty {
                members.append(("expect", .array(declarations.expectations.map(\.scenarioJSON))))
            }
            if declarations.unexpected != .allow {
                members.append(("unexpected", .string(declarations.unexpected.rawValue)))
            }
            if !declarations.checks.isEmpty {
                members.append(("checks", .array(declarations.checks.map(\.scenarioJSON))))
            }
            if let tokenUpload = declarations.tokenUpload {
                members.append(("tokenUpload", tokenUpload.scenarioJSON))
            }
            if !declarations.channels.isEmpty {
                members.append(("channels", .array(declarations.channels.map(\.scenarioJSON))))
            }
        }
        self.document = .object(members)
    }
}
