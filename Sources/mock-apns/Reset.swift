import ArgumentParser
import MockAPNs

/// `mock-apns reset`: clears a running server's journal and puts its world and rules back as loaded.
struct Reset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Reset a running mock-apns: clear the journal, drop run-time devices and rules, restart rule counters, "
                + "set the clock back to real time.")

    @OptionGroup var control: ControlOptions

    func run() async throws {
        let client = control.client()
        try await controlCall { try await client.reset() }
        let name = (try? await client.scenario().name) ?? "?"
        print("reset \(client.url): journal cleared, world and rules back to scenario '\(name)', clock at real time")
    }
}
