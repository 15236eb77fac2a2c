import ArgumentParser
import Foundation
import MockAPNs
import MockAPNsClient

/// Where the control API of a running `mock-apns serve` is, shared by the inspection commands.
struct ControlOptions: ParsableArguments {
    @Option(
        name: [.customLong("control-url"), .customLong("control")],
        help: "The control API URL (serve prints it). Default: $MOCK_APNS_CONTROL_URL, else http://127.0.0.1:2190.")
    var url: String?

    @Option(name: .long, help: "The bearer token given to serve --control-token. Default: $MOCK_APNS_CONTROL_TOKEN.")
    var controlToken: String?

    /// The options as given on the command line (` --control-url URL --control-token T`, each word shell-quoted),
    /// to append to a command printed for the user to run next; empty when neither was given.
    var commandLineFlags: String {
        var flags = ""
        if let url { flags += " --control-url \(StartBanner.shellQuoted(url))" }
        if let controlToken { flags += " --control-token \(StartBanner.shellQuoted(controlToken))" }
        return flags
    }

    /// A client for the chosen control API.
    func client() -> MockAPNsControlClient {
        let environment = ProcessInfo.processInfo.environment
        let base = url ?? environment["MOCK_APNS_CONTROL_URL"] ?? "http://127.0.0.1:\(ControlRoutes.defaultPort)"
        return MockAPNsControlClient(url: base, token: controlToken ?? environment["MOCK_APNS_CONTROL_TOKEN"])
    }
}

/// Runs a control call and turns its refusal into a one-line CLI error that says what to do next.
func controlCall<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as MockAPNsControlError {
        throw CLIError(commandLineMessage(error))
    } catch let error as InputError {
        throw CLIError(error.message)
    } catch let error as ScenarioError {
        throw CLIError("\(error)")
    }
}

/// A control refusal with the flag that fixes it: `--control-url` when nothing answered, `--control-token` for 401.
func commandLineMessage(_ error: MockAPNsControlError) -> String {
    switch error.status {
    case MockAPNsControlClient.unreachableStatus where error.message.hasPrefix("cannot reach"):
        return error.message + " (--control-url URL or $MOCK_APNS_CONTROL_URL points elsewhere; serve prints its URL)"
    case 401:
        return error.message + "; pass it with --control-token TOKEN or $MOCK_APNS_CONTROL_TOKEN"
    default:
        return error.message
    }
}
