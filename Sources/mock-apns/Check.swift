import ArgumentParser
import MockAPNs

/// `mock-apns check`: validates a scenario file without serving it.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scenario file; print a summary, or the file, line and field of the first problem.")

    @Argument(help: "The scenario file (YAML), or a shipped scenario's name (taxi-ride).")
    var file: String

    func run() throws {
        let scenario: Scenario
        do {
            scenario = try RunningMock.loadScenario(file)
        } catch {
            throw CLIError("\(error)")
        }
        let world = scenario.world
        let counts = [
            count(world.keys.count, "key"), count(world.apps.count, "app"), count(world.devices.count, "device"),
            count(scenario.rules.count, "rule"),
        ]
        // The file's own path: for a shipped scenario named by name, where it is (to copy it, or upload it).
        let path = scenario.sourcePath ?? file
        print("\(path): OK — scenario '\(scenario.name)', \(world.environment), \(counts.joined(separator: ", "))")
    }

    /// "1 key", "2 keys", "0 keys".
    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
