import ArgumentParser
import MockAPNs
import MockAPNsClient

/// `mock-apns phone ID`: shows one simulated phone and changes it as its person would.
struct PhoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phone",
        abstract: "Show a simulated phone of a running mock-apns, or change it: --offline, --state forceQuit, ….",
        discussion: """
            ID is a phone id from the scenario's phones:, or one of its device tokens. Without a change it prints \
            the phone (GET /v1/phones/{id}); with one it changes it (PATCH /v1/phones/{id}, and \
            /v1/phones/{id}/apps/{bundle} for --app) and prints the result. `mock-apns phone alice --offline`; \
            `mock-apns phone alice --app com.example.app --state forceQuit`; `mock-apns phone alice --restart` \
            (POST /v1/phones/{id}/restart); anything else with --set, the fields \
            of a scenario's phones entry as JSON: --set '{"focus": {"name": "Sleep"}}'. Usage errors exit 2.
            """)

    @Argument(help: "The phone: its id, or one of its device tokens.")
    var id: String

    @Flag(name: .long, help: "Take the phone offline.")
    var offline = false

    @Flag(name: .long, help: "Bring the phone back online.")
    var online = false

    @Flag(name: .long, help: "Lock the phone.")
    var locked = false

    @Flag(name: .long, help: "Unlock the phone.")
    var unlocked = false

    @Flag(
        name: .long,
        help: "Restart the phone first (POST /v1/phones/{id}/restart): force-quit apps become notRunning.")
    var restart = false

    @Option(name: .long, help: "Low Power Mode: on or off.")
    var lowPower: String?

    @Option(name: .long, help: "The app the --state and --authorization options change (its bundle id).")
    var app: String?

    @Option(name: .long, help: "The app's state: foreground, background, notRunning or forceQuit (needs --app).")
    var state: String?

    @Option(
        name: .long,
        help: "The app's notification authorization: authorized, denied, notDetermined, provisional or ephemeral.")
    var authorization: String?

    @Option(
        name: .long, help: "Other phone fields as JSON, as in a scenario's phones entry ('{\"callActive\": true}').")
    var set: String?

    @Flag(name: .long, help: "Print the phone as one JSON line.")
    var json = false

    @OptionGroup var control: ControlOptions

    func validate() throws {
        if online && offline { throw ValidationError("give --online or --offline, not both") }
        if locked && unlocked { throw ValidationError("give --locked or --unlocked, not both") }
        if let lowPower, !["on", "off"].contains(lowPower) {
            throw ValidationError("--low-power takes on or off, got '\(lowPower)'")
        }
        if (state != nil || authorization != nil) && app == nil {
            throw ValidationError("--state and --authorization change an app: give --app BUNDLE too")
        }
        if app != nil && state == nil && authorization == nil {
            throw ValidationError("--app names the app that --state or --authorization change: give one of them")
        }
        _ = try phoneFields()
    }

    /// The phone's fields to change, as `PATCH /v1/phones/{id}` takes them; empty for none.
    func phoneFields() throws -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        if let set {
            guard let parsed = try? JSONParser.parse(set), case .object(let members) = parsed else {
                throw ValidationError("--set takes a JSON object of phone fields, such as '{\"callActive\": true}'")
            }
            fields = members
        }
        if online || offline { fields.append(("online", .bool(online))) }
        if locked || unlocked { fields.append(("locked", .bool(locked))) }
        if let lowPower { fields.append(("lowPowerMode", .bool(lowPower == "on"))) }
        return fields
    }

    func run() async throws {
        let client = control.client()
        let fields = try phoneFields()
        var phone: PhoneSnapshot?
        if restart {
            phone = try await controlCall { try await client.restartPhone(id: id) }
        }
        if !fields.isEmpty {
            phone = try await controlCall { try await client.updatePhone(id: id, .object(fields)) }
        }
        if let app {
            var appFields: [(String, JSONValue)] = []
            if let state { appFields.append(("state", .string(state))) }
            if let authorization { appFields.append(("authorization", .string(authorization))) }
            phone = try await controlCall { try await client.updatePhoneApp(id: id, bundleID: app, .object(appFields)) }
        }
        if phone == nil {
            phone = try await controlCall { try await client.phone(id: id) }
        }
        guard let phone else {
            throw CLIError("no phone '\(id)': give a phone id from the scenario's phones:, or a device token")
        }
        PhonePrinter(json: json).print(phone)
    }
}
