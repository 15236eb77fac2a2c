import ArgumentParser
import Foundation
import MockAPNs
import MockAPNsClient

/// Where the control API of a running `mock-apns serve` is, shared by the inspection commands.
struct ControlOptions: ParsableArguments {
    @Option(
        name: .customLong("control"),
        help: "The control API URL. Default: $MOCK_APNS_CONTROL_URL, else http://127.0.0.1:2190.")
    var url: String?

    @Option(name: .long, help: "The bearer token given to serve --control-token. Default: $MOCK_APNS_CONTROL_TOKEN.")
    var controlToken: String?

    /// A client for the chosen control API.
    func client() -> MockAPNsControlClient {
        let environment = ProcessInfo.processInfo.environment
        let base = url ?? environment["MOCK_APNS_CONTROL_URL"] ?? "http://127.0.0.1:\(ControlRoutes.defaultPort)"
        return MockAPNsControlClient(url: base, token: controlToken ?? environment["MOCK_APNS_CONTROL_TOKEN"])
    }
}

/// Runs a control call and turns its refusal into a one-line CLI error.
func controlCall<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as MockAPNsControlError {
        throw CLIError(error.message)
    } catch let error as ScenarioError {
        throw CLIError("\(error)")
    }
}
