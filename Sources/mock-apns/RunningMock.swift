import Foundation
import Logging
import MockAPNs
import MockAPNsClient
import ServiceLifecycle

/// A started mock as `serve` and `run` start it: the APNs endpoint and, unless turned off, the control API.
struct RunningMock {
    let server: MockAPNsServer
    let controlAPI: MockAPNsControlAPI?
    /// What `GET /v1/info` answers (and `serve --ready-json` prints).
    let info: InspectorInfo

    /// Where and how the control API listens; `nil` for no control API.
    struct ControlSettings {
        var host: String
        /// The port; `nil` for the default, 2190, or a free one when the APNs port is free-picked too.
        var port: Int?
        var token: String?
    }

    /// The scenario file, or the embedded default world when `path` is `nil`. A `path` with nothing there names a
    /// shipped scenario (`taxi-ride`, `scenarios/taxi-ride.yaml`: see `ScenarioFolder.locate`); standard error then
    /// says which file was loaded. `serve --scenario`, `run`, `check` and `verify` all load theirs here.
    static func loadScenario(_ path: String?) throws(ScenarioError) -> Scenario {
        guard let path else { return .embeddedDefault() }
        let file = try ScenarioFolder.locate(path)
        if file != path { warn("scenario \(path): using the shipped \(file)") }
        return try ScenarioLoader.load(file: file)
    }

    /// Starts the APNs endpoint for `scenario`, then the control API; a `CLIError` with the listen failure's
    /// one-line message when either cannot start (the endpoint is stopped again when the control API fails).
    /// `underRun` is what `GET /v1/info` says of `mock-apns run`; `GET /v1/info` names the embedded test CA's and
    /// key's files (`TestCAFile`) when the scenario has none of its own.
    static func start(
        scenario: Scenario, journalFile: String?, control: ControlSettings?, underRun: Bool = false, logger: Logger
    ) async throws -> RunningMock {
        let server: MockAPNsServer
        do {
            // Over AsyncHTTPClient, which the command links anyway: `tokenUpload:` may name an https:// endpoint.
            server = try await MockAPNsServer.start(
                scenario: scenario, journalFile: journalFile, logger: logger,
                tokenUploadTransport: AsyncHTTPClientTokenUploadTransport())
        } catch let failure as ListenFailure {
            throw CLIError(failure.commandLineMessage)
        } catch {
            throw CLIError("cannot start: \(error)")
        }
        let testFiles = (
            caFile: server.caPEM != nil && scenario.listen.caFile == nil ? try? TestCAFile.locate().path : nil,
            keyFile: scenario.signingKeyFile == nil ? try? TestCAFile.locateSigningKey().path : nil
        )
        let info = InspectorInfo.live(server: server, journalFile: journalFile, run: underRun, testFiles: testFiles)
        guard let control else { return RunningMock(server: server, controlAPI: nil, info: info) }
        // With --port 0 (tests, parallel runs) a fixed control port would collide: take a free one too.
        let port = control.port ?? (server.scenario.listen.port == 0 ? 0 : ControlRoutes.defaultPort)
        do {
            let controlAPI = try await MockAPNsControlAPI.start(
                server: server, host: control.host, port: port, token: control.token,
                info: info, logger: logger)
            return RunningMock(server: server, controlAPI: controlAPI, info: info)
        } catch {
            try? await server.shutdown()
            let failure =
                error as? ListenFailure
                ?? ListenFailure(
                    role: .control, host: control.host, port: port, error: error)
            throw CLIError(failure.commandLineMessage)
        }
    }

    /// Stops the control API, then the endpoint (which flushes the journal file).
    func stop() async {
        try? await controlAPI?.shutdown()
        try? await server.shutdown()
    }

    /// Both as swift-service-lifecycle services, for a `ServiceGroup` that stops them on a signal.
    var services: [ServiceGroupConfiguration.ServiceConfiguration] {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: MockAPNsService(server: server))
        ]
        if let controlAPI { services.append(.init(service: MockAPNsControlAPIService(controlAPI: controlAPI))) }
        return services
    }
}
