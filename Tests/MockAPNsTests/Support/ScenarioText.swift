@testable import MockAPNs

/// Scenario YAML written in a test, loaded as a file named `file` in `/` would load.
enum ScenarioText {
    /// The scenario `yaml` loads to.
    static func load(_ yaml: String, file: String? = nil) throws(ScenarioError) -> Scenario {
        try ScenarioLoader.parse(yaml: yaml, sourcePath: file, baseDirectory: "/")
    }

    /// The error loading `yaml` gives, or `nil` when it loads.
    static func error(_ yaml: String, file: String? = nil) -> ScenarioError? {
        do {
            _ = try load(yaml, file: file)
            return nil
        } catch {
            return error
        }
    }
}
