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
        print(
            "\(file): OK — scenario '\(scenario.name)', \(world.environment), \(world.keys.count) keys, "
                + "\(world.apps.count) apps, \(world.devices.count) devices, \(scenario.rules.count) rules")
    }
}
