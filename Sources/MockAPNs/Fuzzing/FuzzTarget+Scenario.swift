import Foundation

extension FuzzTarget {
    /// The load time the scenario target uses, fixed so that an input always means the same scenario.
    static let scenarioLoadTime = Date(timeIntervalSince1970: 1_700_000_000)

    /// The repository's `scenarios/` folder, where relative key and certificate paths resolve (as they do for the
    /// shipped scenarios, which name `../certs/...`).
    static let scenarioFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios").path

    /// The input as scenario YAML. A scenario that loads must also survive its snapshot: the document
    /// `GET /v1/scenario` answers loads back (`PUT /v1/scenario` accepts it) as the same scenario.
    /// Returns the scenario, when the input loads.
    @discardableResult
    static func runScenario(_ input: [UInt8]) throws(FuzzFinding) -> Scenario? {
        let yaml = String(decoding: input, as: UTF8.self)
        let base = scenarioFolder
        guard
            let scenario = try? ScenarioLoader.parse(
                yaml: yaml, sourcePath: nil, baseDirectory: base, now: scenarioLoadTime)
        else { return nil }
        let document = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: scenario.rules, declarations: scenario
        ).document
        let reloaded: Scenario
        do {
            reloaded = try ScenarioLoader.parse(
                yaml: document.jsonText, sourcePath: nil, baseDirectory: base, now: scenarioLoadTime)
        } catch {
            throw FuzzFinding(
                "the snapshot of \(yaml.prefix(300).debugDescription) does not load back: \(error)\n"
                    + document.jsonText.prefix(600))
        }
        let again = ScenarioSnapshot(
            name: reloaded.name, world: reloaded.world, rules: reloaded.rules, declarations: reloaded
        ).document
        guard again == document else {
            let first = Array(document.jsonText.utf8)
            let second = Array(again.jsonText.utf8)
            let same = zip(first, second).prefix { $0 == $1 }.count
            let from = max(0, same - 120)
            throw FuzzFinding(
                "the snapshot of \(yaml.prefix(300).debugDescription) loads back as another scenario; from byte "
                    + "\(from):\n\(String(decoding: first[from...].prefix(400), as: UTF8.self))\n"
                    + "\(String(decoding: second[from...].prefix(400), as: UTF8.self))")
        }
        return scenario
    }
}
