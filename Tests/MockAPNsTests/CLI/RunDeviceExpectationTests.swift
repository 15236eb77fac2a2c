import Foundation
import Testing

/// `mock-apns run` with a `device:` expectation: the CI verdict says whether the phone took the Live Activity
/// push, not only whether APNs answered 200.
@Suite("mock-apns run device expectations", .serialized)
struct RunDeviceExpectationTests {
    typealias Support = RunTestSupport

    @Test("a start the phone drops exits 1 naming the device reason; a good one exits 0")
    func startDroppedOrStarted() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let world = try String(
            contentsOf: AuthTestFiles.packageRoot.appendingPathComponent("scenarios/live-activity.yaml"),
            encoding: .utf8
        ).replacingOccurrences(of: "../certs/", with: AuthTestFiles.packageRoot.path + "/certs/")
        let token = LiveActivityEndToEndTests.taxiStartToken
        let scenario = try Support.write(
            world + """

                expect:
                  - name: ride shows on the phone
                    match: { token: "\(token)", device: { outcome: started, warnings: none } }
                    answered: 200
                """, "ride.yaml", in: folder)
        func start(contentState: String) async throws -> (status: Int32, output: String, errors: String) {
            try await Support.mockAPNs([
                "run", scenario, "--", "mock-apns", "push", token, "--live-activity", "start", "--attributes-type",
                "mpushTaxiAttributes", "--attributes", #"{"appName":"Taxi","appLogo":"logo"}"#, "--content-state",
                contentState, "--alert", "Your ride",
            ])
        }
        let dropped = try await start(contentState: #"{"status":1}"#)
        #expect(dropped.status == 1, "\(dropped.output)\(dropped.errors)")
        #expect(dropped.output.contains("✗ ride shows on the phone"), "\(dropped.output)")
        #expect(
            dropped.output.contains(
                "device outcome was dropped: content-state.status: expected String, found number "
                    + "(expected started with no warnings)"), "\(dropped.output)")
        let started = try await start(contentState: #"{"status":"1"}"#)
        #expect(started.status == 0, "\(started.output)\(started.errors)")
        #expect(started.output.contains("✓ ride shows on the phone"), "\(started.output)")
    }
}
