import Foundation
import Logging
@testable import MockAPNs

/// Starts a server on a free port for one test and always stops it.
func withTestServer<T>(
    scenario: Scenario = .embeddedDefault(port: 0), clock: any APNsClock = MovableClock(), cleartext: Bool = false,
    journalFile: String? = nil, _ body: (MockAPNsServer) async throws -> T
) async throws -> T {
    var scenario = scenario
    scenario.listen.port = 0
    if cleartext { scenario.listen.cleartextPort = 0 }
    var logger = Logger(label: "mock-apns-test")
    logger.logLevel = .warning
    let server = try await MockAPNsServer.start(scenario: scenario, journalFile: journalFile, clock: clock, logger: logger)
    do {
        let result = try await body(server)
        try await server.shutdown(gracePeriod: .seconds(1))
        return result
    } catch {
        try? await server.shutdown(gracePeriod: .seconds(1))
        throw error
    }
}

/// A fresh provider token signed with the test key.
func testProviderToken(at date: Date = Date()) -> String {
    ProviderTokenSigner.makeToken(
        teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: Int64(date.timeIntervalSince1970),
        key: ValidatorFixture.testKey)
}
