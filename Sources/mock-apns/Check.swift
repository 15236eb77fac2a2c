import ArgumentParser
import MockAPNs

/// `mock-apns check`: validates a scenario file without serving it.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scenario file; print a summary, or the file, line and field of the first problem.")

    @Argument(help: "The scenario file (YAML).")
    var file: String

    func run() throws {
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.load(file: file)
        } catch {
            throw CLIError("\(error)")
        }
        let world = scenario.world
        let counts = [
            count(world.keys.count, "key"), count(world.apps.count, "app"), count(world.devices.count, "device"),
            count(scenario.rules.count, "rule"),
        ]
        print("\(file): OK — scenario '\(scenario.name)', \(world.environment), \(counts.joined(separator: ", "))")
    }

    /// "1 key", "2 keys", "0 keys".
    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
