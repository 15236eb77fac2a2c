import ArgumentParser
import Foundation
import MockAPNs
import MockAPNsClient

/// What every `mock-apns channels` operation takes: the channel management endpoint, the app, and `push`'s
/// authentication; and the one way an operation is sent and its error answer shown.
struct ChannelOptions: ParsableArguments {
    @Option(
        name: .customLong("channels-url"),
        help: """
            The channel management endpoint. Default: $MOCK_APNS_CHANNELS_URL, else the running mock's (its \
            control API's /v1/info), else https://localhost:2195.
            """)
    var channelsURL: String?

    @Option(name: .long, help: "The app's bundle id. Default: $MOCK_APNS_BUNDLE_ID, else com.example.app.")
    var bundle: String?

    /// How to authenticate and what to trust (shared with `push`).
    @OptionGroup(title: "Authentication and trust") var credentials: APNsClientOptions

    /// Where the running mock's control API is, to find its channel endpoint when no URL is given.
    @OptionGroup(title: "Finding the mock's endpoint") var control: ControlOptions

    /// The endpoint used when neither a flag, the environment nor a running mock names one: APNs's sandbox port.
    static let fallbackURL = "https://localhost:\(ListenSettings.defaultChannelsPort)"
    /// How long the look-up of the running mock's endpoint may take: its control API answers at once when it is
    /// there.
    static let lookupTimeout = Duration.seconds(2)

    func validate() throws {
        if let channelsURL { _ = try PushTarget(url: channelsURL, flag: "--channels-url") }
        if let bundle { try BundleIDFlag.check(bundle, flag: "--bundle") }
    }

    /// The app: `--bundle`, else `$MOCK_APNS_BUNDLE_ID`, else `com.example.app`.
    var bundleID: String { bundle ?? Push.defaultTopicHere }

    /// `--channels-url`, else `$MOCK_APNS_CHANNELS_URL` (as `mock-apns run` sets it), else the `channelsURL` of the
    /// running mock's `/v1/info`, else `fallbackURL`.
    func target() async throws -> PushTarget {
        if let given = channelsURL ?? APNsClientOptions.environment("MOCK_APNS_CHANNELS_URL") {
            let flag = channelsURL == nil ? "$MOCK_APNS_CHANNELS_URL" : "--channels-url"
            do { return try PushTarget(url: given, flag: flag) } catch let error as ValidationError {
                throw MockAPNsCommand.usage(error, command: "channels")
            }
        }
        var client = control.client()
        client.requestTimeout = Self.lookupTimeout
        if let found = try? await client.info()["channelsURL"]?.stringValue, let target = try? PushTarget(url: found) {
            return target
        }
        return try PushTarget(url: Self.fallbackURL)
    }

    /// Sends `method` to the app's `resource` (`channels` or `all-channels`) with `headers` and `body`, and returns
    /// the answer when its status is `expected`. Another answer is APNs's refusal: its status, reason and
    /// `apns-request-id` go to standard error, exit 1 (`ExitCode`); exit 3 when the endpoint cannot be reached.
    func send(
        _ method: String, _ resource: String, headers: [(String, String)] = [], body: String = "", expected: Int,
        command: String
    ) async throws -> APNsCall.Answer {
        var target = try await target()
        target.path = "/1/apps/\(bundleID)/\(resource)"
        var call = APNsCall(
            method: method, target: target, headers: try credentials.authorizationHeaders() + headers,
            body: Array(body.utf8), credentials: credentials, command: command)
        call.whereToFind =
            "`mock-apns serve` prints its channel management URL (channels https://…): set MOCK_APNS_CHANNELS_URL "
            + "or pass --channels-url"
        let answer = try await call.send()
        guard answer.status == expected else {
            var lines = answer.lines(headers: ["apns-request-id"])
            lines += await PushExplanation.lines(
                kind: .channel, requestID: answer.header("apns-request-id"), control: control)
            StandardStream.error.write("error: \(target.url) answered " + lines.joined(separator: "\n") + "\n")
            throw ExitCode(1)
        }
        return answer
    }

    /// A channel id given on the command line, checked: standard base64, as APNs issues them.
    static func checkedID(_ id: String) throws {
        guard BroadcastChannel.isWellFormedID(id) else {
            throw ValidationError(
                "the channel id must be base64 (such as dGVzdC1jaGFubmVsLTE=, as `mock-apns channels create` or "
                    + "`list` prints it), got '\(id)'")
        }
    }
}
