import ArgumentParser
import MockAPNs
import MockAPNsClient

/// `mock-apns phones`: lists the simulated phones of a running server.
struct PhonesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phones",
        abstract: "Show the simulated phones of a running mock-apns: their state and what each shows.",
        discussion: """
            Talks to the control API of `mock-apns serve` (GET /v1/phones): the phones the scenario declares, the \
            phone of each declared device token, each other phone the mock keeps state for, and the default phone \
            of each undeclared token a push reached. `mock-apns phone ID` shows one and changes it. Usage errors \
            exit 2.
            """)

    @Flag(name: .long, help: "Print each phone as one JSON line.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() async throws {
        let client = control.client()
        let phones = try await controlCall { try await client.phones() }
        let printer = PhonePrinter(json: json)
        if phones.isEmpty, !json {
            print("no phones: the scenario declares none, and no declared device or push made one")
        }
        for phone in phones { printer.print(phone, notifications: 3) }
    }
}
