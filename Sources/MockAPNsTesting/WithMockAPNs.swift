import Logging
import MockAPNs

/// Runs `body` with a mock APNs server on a free port and always stops it, whether `body` returns or throws.
///
/// Works in Swift Testing and XCTest alike:
///
/// ```swift
/// try await withMockAPNs { server in
///     // point the provider at https://localhost:\(server.port), trusting server.caPEM
///     try await server.expectPush(to: token, count: 1, timeout: .seconds(2))
/// }
/// ```
///
/// - Parameters:
///   - scenario: the world and its script; by default the embedded lenient sandbox that trusts the test key in
///     `certs/`. Its ports are replaced with free ones (port 0).
///   - controlAPI: also start the HTTP control API on a free port (read it from `server.controlAPI`), for
///     providers or tools that talk to it.
///   - clock: the time source: by default real time plus an offset that `server.advanceClock(by:)` moves; inject
///     a `ManualClock` to start at a fixed time.
///   - tokenUploadTransport: how `tokenUpload:` posts tokens; by default the core's plain HTTP, which takes
///     `http://` URLs only (an `https://` upload fails, saying so). Pass `MockAPNsClient`'s
///     `AsyncHTTPClientTokenUploadTransport()` for `https://`.
public func withMockAPNs<T>(
    scenario: Scenario = .embeddedDefault(port: 0), controlAPI: Bool = false, clock: any APNsClock = MovableClock(),
    logLevel: Logger.Level = .warning, tokenUploadTransport: (any TokenUploadTransport)? = nil,
    _ body: (MockAPNsTestServer) async throws -> T
) async throws -> T {
    var scenario = scenario
    scenario.listen.port = 0
    if scenario.listen.cleartextPort != nil { scenario.listen.cleartextPort = 0 }
    var logger = Logger(label: "mock-apns")
    logger.logLevel = logLevel
    let server = try await MockAPNsServer.start(
        scenario: scenario, clock: clock, logger: logger, tokenUploadTransport: tokenUploadTransport)
    var control: MockAPNsControlAPI?
    do {
        if controlAPI { control = try await MockAPNsControlAPI.start(server: server, port: 0, logger: logger) }
    } catch {
        try? await server.shutdown(gracePeriod: .seconds(1))
        throw error
    }
    let testServer = MockAPNsTestServer(server: server, controlAPI: control)
    do {
        let result = try await body(testServer)
        try await testServer.stop()
        return result
    } catch {
        try? await testServer.stop()
        throw error
    }
}

/// Runs `body` with a mock APNs server running the scenario file at `path` (see `scenarios/README.md`).
public func withMockAPNs<T>(
    scenarioFile path: String, controlAPI: Bool = false, clock: any APNsClock = MovableClock(),
    logLevel: Logger.Level = .warning, tokenUploadTransport: (any TokenUploadTransport)? = nil,
    _ body: (MockAPNsTestServer) async throws -> T
) async throws -> T {
    let scenario = try ScenarioLoader.load(file: path, now: clock.now())
    return try await withMockAPNs(
        scenario: scenario, controlAPI: controlAPI, clock: clock, logLevel: logLevel,
        tokenUploadTransport: tokenUploadTransport, body)
}
