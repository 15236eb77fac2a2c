import ArgumentParser
import MockAPNs
import MockAPNsClient

/// `mock-apns activities`: lists (or follows) the simulated phone's Live Activities on a running server.
struct ActivitiesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activities",
        abstract: "Show the simulated phone's Live Activities on a running mock-apns; --follow tails their changes.",
        discussion: """
            Talks to the control API of `mock-apns serve` (GET /v1/activities). The table shows each activity's \
            id, type, state at the mock's clock, update token (shortened), last content-state and what the phone \
            did with its pushes. Filters combine: `mock-apns activities --type mpushTaxiAttributes --state active`. \
            A footer counts the pushes to push-to-start tokens that started nothing (the phone dropped or \
            throttled them; to the --token given) and prints the `mock-apns requests` command that lists them. \
            Usage errors exit 2.
            """)

    @Flag(name: [.short, .long], help: "Keep running and print each change as it happens (server-sent events).")
    var follow = false

    @Flag(name: .long, help: "Print each activity (with --follow: each change) as one JSON line.")
    var json = false

    @Option(name: .long, help: "Only activities in this state: active, stale, ended or dismissed.")
    var state: String?

    @Option(name: .long, help: "Only activities of this attributes type (mpushTaxiAttributes).")
    var type: String?

    @Option(name: .long, help: "Only the activity with this update token, or those from this push-to-start token.")
    var token: String?

    @OptionGroup var control: ControlOptions

    /// The filters as the server reads them: the same checks and messages, before any network call.
    func query() throws -> ActivityQuery {
        var parameters = [(name: String, value: String)]()
        if let state { parameters.append(("state", state)) }
        if let type { parameters.append(("type", type)) }
        if let token { parameters.append(("token", token)) }
        do {
            return try ActivityQuery.parse(parameters).query
        } catch {
            // The server names the parameter first (`state must be one of ...`): here it is the flag.
            let flagged = ["state", "type", "token"].contains { error.message.hasPrefix($0 + " ") }
            throw ValidationError(flagged ? "--" + error.message : error.message)
        }
    }

    func validate() throws {
        _ = try query()
    }

    func run() async throws {
        let query = try query()
        let client = control.client()
        let printer = ActivityPrinter(json: json, color: Terminal.wantsColor, follow: follow)
        // Open the stream before listing, so no change falls between the two (one may show twice).
        let changes = follow ? client.streamActivities(query) : nil
        let activities = try await controlCall { try await client.activities(query) }
        printer.header()
        for activity in activities { printer.print(activity) }
        if !json, !follow {
            let dropped = try await controlCall { try await DroppedStarts.fetch(client, token: query.token) }
            printer.footer(dropped.footer(controlFlags: control.commandLineFlags))
        }
        guard let changes else { return }
        do {
            for try await change in changes { printer.print(change) }
        } catch let error as MockAPNsControlError {
            throw CLIError(commandLineMessage(error))
        }
    }
}
