import Foundation
import Yams

extension ScenarioLoader {
    /// Parses scripted rules written as in a scenario's `rules:` list: a list of rules, or one rule mapping.
    ///
    /// Errors name the line, column and field (`rules[0].respond.status`) as for a scenario file.
    public static func parseRules(yaml: String, now: Date = Date()) throws(ScenarioError) -> [ScriptedRule] {
        let reader = Reader(file: nil, baseDirectory: FileManager.default.currentDirectoryPath, now: now)
        return try reader.rules(
            try fragment(yaml, section: "rules", example: "{\"respond\": {\"reason\": \"Unregistered\"}}"))
    }

    /// Parses devices written as in a scenario's `devices:` list: a list of devices, or one device mapping.
    public static func parseDevices(yaml: String, now: Date = Date()) throws(ScenarioError) -> [Device] {
        let reader = Reader(file: nil, baseDirectory: FileManager.default.currentDirectoryPath, now: now)
        let devices = try reader.devices(try fragment(yaml, section: "devices", example: "{\"token\": \"0123abcd\"}"))
        return devices.values.sorted { $0.token < $1.token }
    }

    /// The document as a list field named `section`; a single mapping becomes a one-element list.
    private static func fragment(_ yaml: String, section: String, example: String) throws(ScenarioError) -> Field {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw syntaxError(error, file: nil, yaml: yaml)
        }
        guard let root, !Field(node: root, path: section, file: nil).isNull else {
            throw ScenarioError(
                field: section, message: "the body is empty; send one entry such as \(example), or a list of them")
        }
        switch root {
        case .sequence:
            return Field(node: root, path: section, file: nil)
        default:
            return Field(node: .sequence(Node.Sequence([root])), path: section, file: nil)
        }
    }
}
