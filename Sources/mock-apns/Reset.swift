import ArgumentParser
import MockAPNs

/// `mock-apns reset`: clears a running server's journal and puts its world and rules back as the scenario it started
/// with has them (`--to loaded`: the one loaded last).
struct Reset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Reset a running mock-apns: clear the journal, drop run-time devices and rules, restart rule counters, "
                + "set the clock back to real time.")

    @OptionGroup var control: ControlOptions

    @Option(
        name: .long,
        help: "started (the scenario the server started with, the default) or loaded (the one loaded last).",
        transform: { text in
            guard let target = ResetTarget(rawValue: text) else {
                throw ValidationError("--to must be started or loaded, got '\(text)'")
            }
            return target
        })
    var to: ResetTarget = .started

    func run() async throws {
        let client = control.client()
        try await controlCall { try await client.reset(to: to) }
        let name = (try? await client.scenario().name) ?? "?"
        print("reset \(client.url): journal cleared, world and rules back to scenario '\(name)', clock at real time")
    }
}
