import ArgumentParser
import Foundation
import MockAPNs

/// `mock-apns push`: sends one push to the mock (by default) or any APNs endpoint and prints APNs' answer.
struct Push: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send one push to the mock (or any APNs endpoint) and print the answer.",
        discussion: """
            By default it targets the local mock: $MOCK_APNS_URL when set, else https://localhost:2197, trusting \
            the system CAs and the embedded test CA, and signs with the embedded test key (team TESTTEAM01, key \
            TESTKEY001), or authenticates with a TLS client certificate (--cert, --cert-key). Under mock-apns run, \
            $MOCK_APNS_CA_FILE, $MOCK_APNS_KEY_FILE, $MOCK_APNS_KEY_ID, $MOCK_APNS_TEAM_ID and $MOCK_APNS_BUNDLE_ID (the default topic) stand in for --ca, --key, --key-id, \
            --team-id and --topic. The payload is --payload (a file, or - for standard input), with --alert and the Live \
            Activity options filled in (at least one of --alert, --payload and --live-activity is needed).

            Live Activities: --live-activity start|update|end sets push type liveactivity, the topic suffix \
            .push-type.liveactivity, aps.event and aps.timestamp (now, in seconds); --content-state fills \
            aps.content-state; start also needs --attributes-type and --attributes, and sends input-push-token: 1 \
            (ask for the update token, as a provider that updates the activity does) unless --no-input-push-token \
            or the payload's own aps.input-push-token says otherwise.

            When the endpoint is mock-apns, the lines under the status say why it answered so (why:, note:, \
            phone:), read from its control API ($MOCK_APNS_CONTROL_URL or --control-url, else \
            http://127.0.0.1:2190); nothing more is printed when that is not reachable.

            Broadcasts: --channel ID sends to POST /4/broadcasts/apps/<bundle> (the bundle is --topic without its \
            .push-type.liveactivity suffix) with apns-channel-id, apns-push-type: liveactivity, apns-priority \
            (default 10) and apns-expiration (default 0, which a channel without message storage requires); it \
            prints the status, apns-request-id and apns-unique-id. A device token, --collapse-id, --apns-id and \
            --live-activity start do not go with it.

            Exit status: 0 on 200, 1 when APNs answers with an error, 2 on a usage error, 3 when the endpoint \
            cannot be reached. With --curl it prints the equivalent curl command and sends nothing.
            """)

    /// The device (or push-to-start, or activity update) token: the last path segment of /3/device/; none with
    /// `--channel`.
    @Argument(help: "The device token (hex), or a Live Activity's push-to-start or update token (none with --channel).")
    var deviceToken: String?

    /// A broadcast channel's id: send to `/4/broadcasts/apps/<bundle>` instead of one device.
    @Option(
        name: .long,
        help: "Broadcast to this channel (its base64 id, as `mock-apns channels create` prints it), not a device.")
    var channel: String?

    @Option(name: .long, help: "The APNs endpoint. Default: $MOCK_APNS_URL, else https://localhost:2197.")
    var url: String?

    /// How to authenticate and what to trust (shared with `channels`).
    @OptionGroup(title: "Authentication and trust") var credentials: APNsClientOptions

    @Option(name: .long, help: "Set aps.alert to this text.")
    var alert: String?

    @Option(name: .long, help: "The payload: a JSON file, or - for standard input.")
    var payload: String?

    @Option(name: .long, help: "apns-push-type. Default: alert, or liveactivity with --live-activity or --channel.")
    var pushType: String?

    @Option(
        name: .long,
        help: """
            apns-topic (with --channel: the app's bundle id in the path). Default: $MOCK_APNS_BUNDLE_ID, else \
            com.example.app (+ .push-type.liveactivity for Live Activities).
            """)
    var topic: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: "apns-priority: 10, 5 or 1. Default: none sent (APNs assumes 10); 10 with --channel.")
    var priority: Int?

    @Option(
        name: .long, parsing: .unconditional,
        help: "apns-expiration, seconds since 1970 (0: deliver once or drop). Default: none sent; 0 with --channel.")
    var expiration: Int64?

    @Option(name: .long, help: "apns-collapse-id (at most 64 bytes).")
    var collapseID: String?

    @Option(name: .long, help: "apns-id, a UUID. Default: none sent (APNs assigns one).")
    var apnsID: String?

    @Option(name: .long, help: "Send a Live Activity event: start, update or end.")
    var liveActivity: LiveActivityEvent?

    @Option(name: .long, help: "aps.attributes-type, the Swift ActivityAttributes type name (start only).")
    var attributesType: String?

    @Option(name: .long, help: "aps.attributes, a JSON object (start only).")
    var attributes: String?

    @Option(name: .long, help: "aps.content-state, a JSON object.")
    var contentState: String?

    @Flag(
        name: .long,
        help: "With --live-activity start: do not add aps.input-push-token: 1 (the phone then issues no update token).")
    var noInputPushToken = false

    @Flag(name: .long, help: "Print the equivalent curl command instead of sending.")
    var curl = false

    /// Where to ask the mock why it answered so (`PushExplanation`).
    @OptionGroup(title: "Explaining the answer (when the endpoint is mock-apns)") var control: ControlOptions

    /// A Live Activity event, the value of `aps.event`.
    enum LiveActivityEvent: String, ExpressibleByArgument, CaseIterable {
        case start, update, end
    }

    /// The default topic: the default world's app.
    static let defaultTopic = "com.example.app"
    /// The topic suffix of Live Activity pushes.
    static let liveActivitySuffix = ".push-type.liveactivity"
    /// The priorities APNs accepts.
    static let priorities = [10, 5, 1]

    func validate() throws {
        if let priority, !Self.priorities.contains(priority) {
            throw ValidationError("--priority must be 10, 5 or 1 (what APNs accepts), got \(priority)")
        }
        if let expiration, expiration < 0 {
            throw ValidationError("--expiration must be 0 or more seconds since 1970, got \(expiration)")
        }
        if let collapseID, collapseID.utf8.count > 64 {
            throw ValidationError("--collapse-id must be at most 64 bytes, got \(collapseID.utf8.count)")
        }
        if let apnsID, UUID(uuidString: apnsID) == nil {
            throw ValidationError("--apns-id must be a UUID (8-4-4-4-12 hex digits), got '\(apnsID)'")
        }
        try validateTarget()
        _ = try PushTarget(url: url ?? Self.defaultURL)
        try validateLiveActivity()
        if payload == nil, alert == nil, liveActivity == nil {
            throw ValidationError("nothing to send: give --alert TEXT, --payload FILE|- or --live-activity")
        }
    }

    /// One device token or `--channel`, and only the flags that make sense for it.
    private func validateTarget() throws {
        guard let channel else {
            guard let deviceToken else {
                throw ValidationError("give a device token, or --channel ID to broadcast to a channel")
            }
            if deviceToken.isEmpty || deviceToken.contains(where: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }) {
                throw ValidationError(
                    "the device token must be letters and digits (hex for APNs), got '\(deviceToken)'")
            }
            return
        }
        if let deviceToken {
            throw ValidationError(
                "--channel broadcasts to every activity subscribed to the channel: give it or a device token "
                    + "('\(deviceToken)'), not both")
        }
        guard BroadcastChannel.isWellFormedID(channel) else {
            throw ValidationError(
                "--channel must be a channel id in base64 (such as dGVzdC1jaGFubmVsLTE=, as `mock-apns channels "
                    + "create` prints it), got '\(channel)'")
        }
        for (flag, given) in [
            ("--collapse-id", collapseID != nil), ("--apns-id", apnsID != nil),
            ("--no-input-push-token", noInputPushToken),
        ] where given {
            throw ValidationError("\(flag) is for a push to a device; a broadcast (--channel) has none")
        }
        if liveActivity == .start {
            throw ValidationError(
                "a broadcast updates or ends activities already subscribed to the channel: --live-activity update "
                    + "or end, not start")
        }
        if let pushType, pushType.lowercased() != "liveactivity" {
            throw ValidationError("a broadcast (--channel) is push type liveactivity, not '\(pushType)'")
        }
        if let topic { try BundleIDFlag.check(topic, flag: "--topic (with --channel, the app's bundle id)") }
    }

    private func validateLiveActivity() throws {
        guard let liveActivity else {
            for (flag, value) in [
                ("--attributes-type", attributesType), ("--attributes", attributes), ("--content-state", contentState),
            ] where value != nil {
                throw ValidationError("\(flag) needs --live-activity start|update|end")
            }
            if noInputPushToken { throw ValidationError("--no-input-push-token goes with --live-activity start only") }
            return
        }
        if liveActivity != .start {
            if attributesType != nil || attributes != nil {
                throw ValidationError("--attributes-type and --attributes go with --live-activity start only")
            }
            if noInputPushToken { throw ValidationError("--no-input-push-token goes with --live-activity start only") }
        } else if attributesType == nil || attributes == nil || contentState == nil {
            throw ValidationError(
                "--live-activity start needs --attributes-type, --attributes and --content-state")
        }
        if liveActivity == .update, contentState == nil {
            throw ValidationError("--live-activity update needs --content-state")
        }
        if let attributes { _ = try Self.jsonObject(attributes, option: "--attributes") }
        if let contentState { _ = try Self.jsonObject(contentState, option: "--content-state") }
        if let pushType, pushType != "liveactivity" {
            throw ValidationError("--live-activity sends push type liveactivity, not '\(pushType)'")
        }
    }

    /// The URL used without `--url`: `MOCK_APNS_URL`, else the mock's default TLS port on this machine.
    static var defaultURL: String {
        ProcessInfo.processInfo.environment["MOCK_APNS_URL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "https://localhost:2197"
    }

    /// `text` parsed as a JSON object, or a usage error naming `option` and the byte where it goes wrong.
    static func jsonObject(_ text: some Collection<UInt8>, option: String) throws -> [(String, JSONValue)] {
        let value: JSONValue
        do { value = try JSONParser.parse(Array(text)) } catch {
            throw ValidationError("\(option) is not valid JSON: \(error.message) at byte \(error.offset)")
        }
        guard case .object(let members) = value else { throw ValidationError("\(option) must be a JSON object") }
        return members
    }

    /// `text` parsed as a JSON object, or a usage error naming `option` and the byte where it goes wrong.
    static func jsonObject(_ text: String, option: String) throws -> [(String, JSONValue)] {
        try jsonObject(Array(text.utf8), option: option)
    }

    func run() async throws {
        let request: PushRequest
        do { request = try PushRequest(self) } catch let error as ValidationError {
            throw Self.usage(error)
        } catch let error as CLIError {
            throw Self.usage(ValidationError(error.description))
        }
        if curl {
            do { print(try request.call.curlCommand()) } catch { throw Self.usage(ValidationError("\(error)")) }
            return
        }
        let answer = try await request.call.send()
        // Through `print`, as the explanation below goes: both leave in order.
        print(answer.lines(headers: request.answerHeaders).joined(separator: "\n"))
        if channel != nil {
            let why = await PushExplanation.lines(
                kind: .broadcast, requestID: answer.header("apns-request-id"), control: control)
            if !why.isEmpty { print(why.joined(separator: "\n")) }
        } else {
            await PushExplanation.show(apnsID: answer.header("apns-id"), control: control)
        }
        if answer.status != 200 { throw ExitCode(1) }
    }

    /// A usage error found while running (a payload file that does not parse): printed with the help hint, exit 2.
    static func usage(_ error: ValidationError) -> Error { MockAPNsCommand.usage(error, command: "push") }
}
