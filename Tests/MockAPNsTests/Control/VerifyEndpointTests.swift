import Foundation
import MockAPNsClient
import MockAPNsTesting
import Testing

@testable import MockAPNs

/// `POST /v1/verify` over real HTTP against a server that took real pushes, and `verify()` in every front end.
@Suite("Verify over the control API", .serialized)
struct VerifyEndpointTests {
    static let device = EndToEndTests.device
    static let other = ControlAPITests.other

    /// The embedded default scenario with the expectations of `yaml`.
    static func scenario(_ yaml: String) throws -> Scenario {
        let loaded = try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.expectations = loaded.expectations
        scenario.unexpected = loaded.unexpected
        return scenario
    }

    static let expectations = """
        expect:
          - name: order alert
            match: { token: "\(device)", payload: { aps.alert.title: "Order ready" } }
            answered: 200
          - name: nothing to the other phone
            match: { token: "\(other)" }
            count: 0
        unexpected: fail
        """

    @Test("POST /v1/verify answers 200 with the report as JSON, passed or not; the Swift client reads it back")
    func verifyOverHTTP() async throws {
        try await withControlServer(scenario: try Self.scenario(Self.expectations)) { server, control in
            let empty = try await ControlCurl.call("POST", control, "/v1/verify")
            #expect(empty.status == 200)
            #expect(empty.json?["passed"] == .bool(false))
            #expect(empty.json?["records"] == .number("0"))
            #expect(empty.json?["items"]?.arrayValue?.count == 3)

            #expect(try await sendPush(server) == 200)
            let passing = try await ControlCurl.call("POST", control, "/v1/verify")
            #expect(passing.status == 200)
            #expect(passing.json?["passed"] == .bool(true), "\(passing.text)")
            #expect(passing.json?["summary"] == .string("3 passed, 0 failed, 1 record checked"))
            #expect(passing.json?.value(atPath: "items.0.records") == .array([.number("1")]))

            #expect(try await sendPush(server, to: Self.other) == 200)
            let failing = try await ControlCurl.call("POST", control, "/v1/verify")
            #expect(failing.status == 200)
            #expect(failing.json?["passed"] == .bool(false))
            let items = failing.json?["items"]?.arrayValue ?? []
            #expect(items.map { $0["passed"] } == [.bool(true), .bool(false), .bool(true)])
            #expect(items[1].value(atPath: "details.0")?.stringValue == "expected no push to fedcba…543210; got 1.")

            let client = MockAPNsControlClient(url: control.url)
            let report = try await client.verify()
            let local = try await server.verify()
            #expect(report.json == local.json)
            #expect(!report.passed)
            #expect(report.description.contains("✗ nothing to the other phone: got 1, expected no push"))
            #expect(report.description.hasSuffix("2 passed, 1 failed, 2 records checked"))
        }
    }

    @Test("GET /v1/scenario shows expect: and unexpected:, and a scenario PUT with them is verified by them")
    func scenarioDocument() async throws {
        try await withControlServer(scenario: try Self.scenario(Self.expectations)) { server, control in
            let document = try await ControlCurl.call("GET", control, "/v1/scenario")
            #expect(document.json?["unexpected"] == .string("fail"))
            #expect(document.json?.value(atPath: "expect.0.name") == .string("order alert"))
            #expect(document.json?.value(atPath: "expect.1.count") == .number("0"))

            let refused = try await ControlCurl.call(
                "PUT", control, "/v1/scenario", body: "expect:\n  - answered: Unregisterd\n")
            #expect(refused.status == 422)
            #expect(refused.json?["line"] == .number("2") && refused.json?["column"] == .number("15"))
            #expect(refused.json?["field"] == .string("expect[0].answered"))
            #expect(refused.error?.contains("did you mean 'Unregistered'?") == true, "\(refused.text)")
            let kept = try await server.verify().items.map(\.name)
            #expect(kept == ["order alert", "nothing to the other phone", "unexpected requests"], "the running one stays")

            let put = try await ControlCurl.call(
                "PUT", control, "/v1/scenario", body: "expect:\n  - name: any push\n    count: { min: 2 }\n")
            #expect(put.status == 200, "\(put.text)")
            #expect(try await sendPush(server) == 200)
            let report = try await MockAPNsControlClient(url: control.url).verify()
            #expect(report.items.map(\.name) == ["any push"])
            #expect(report.items[0].summary == "got 1, expected at least 2 pushes")
        }
    }

    @Test("MockAPNsTestServer.verify() returns the report with a readable description")
    func testingLibrary() async throws {
        try await withMockAPNs(scenario: try Self.scenario(Self.expectations)) { server in
            let provider = try TestingLibraryTests.provider(trusting: server.caPEM)
            _ = try await TestingLibraryTests.send(provider, to: server, token: Self.device, title: "Order Ready")
            try await provider.shutdown()
            let report = try await server.verify()
            #expect(!report.passed)
            #expect(report.description.contains("✗ order alert: got 0, expected 1 push"), "\(report)")
            #expect(
                report.description.contains(
                    #"aps.alert.title was "Order Ready" (expected "Order ready")"#), "\(report)")
        }
    }
}
