import Foundation
import Testing

@testable import MockAPNs

/// `mock-apns clock` run as a person runs it, against a real control API.
@Suite("mock-apns clock", .serialized)
struct ClockCommandTests {
    func run(_ arguments: [String], _ control: MockAPNsControlAPI) async throws -> (
        status: Int32, output: String, errors: String
    ) {
        try await CLITests.run(["clock"] + arguments + ["--control-url", control.url])
    }

    @Test("shows the clock, advances, sets and resets it, and prints JSON")
    func showAndMove() async throws {
        try await withControlServer { server, control in
            let shown = try await run([], control)
            #expect(shown.status == 0, "\(shown.errors)")
            #expect(shown.output.hasSuffix("Z (real time +0s)\n"), "\(shown.output)")

            let advanced = try await run(["--advance", "9h"], control)
            #expect(advanced.output.hasSuffix("Z (real time +9h)\n"), "\(advanced.output)")
            #expect(try await server.clock().offset == .seconds(9 * 3600))

            let back = try await run(["--advance", "-9h5m"], control)
            #expect(back.status != 0)
            #expect(back.errors.contains("advance: expected a duration such as"), "\(back.errors)")
            let behind = try await run(["--advance", "-9h", "--json"], control)
            #expect(try JSONParser.parse(behind.output)["offset"] == "0s", "\(behind.output)")

            let set = try await run(["--set", "2026-11-22T18:00:00Z"], control)
            #expect(set.output.hasPrefix("2026-11-22T18:00:00."), "\(set.output)")
            #expect(set.output.contains("(real time -"))

            let reset = try await run(["--reset"], control)
            #expect(reset.output.hasSuffix("(real time +0s)\n"), "\(reset.output)")
            #expect(try await server.clock().offset == .zero)
        }
    }

    @Test("refuses two moves at once and a duration without a unit, before calling the server")
    func badArguments() async throws {
        let both = try await CLITests.run(["clock", "--advance", "1h", "--reset"])
        #expect(both.status != 0)
        #expect(both.errors.contains("give at most one of --advance, --set and --reset"), "\(both.errors)")
        // Nothing listens on port 9: the message is the duration's, so it was checked first.
        let unit = try await CLITests.run(["clock", "--advance", "9", "--control-url", "http://127.0.0.1:9"])
        #expect(unit.status != 0)
        #expect(unit.errors.contains("advance: a duration needs a unit"), "\(unit.errors)")
    }
}

/// The repro of the real-time provider bug: `mock-apns push` mints its token on real time.
@Suite("mock-apns push on a moved clock", .serialized)
struct ClockPushCommandTests {
    @Test("mock-apns push after mock-apns clock --advance 9h is 200: its real-time token is read on the mock's clock")
    func pushAfterAdvance() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let controlURL = try #require(server.controlURL, "\(server.banner)")
        let advanced = try await CLITests.run(["clock", "--advance", "9h", "--control-url", controlURL])
        #expect(advanced.status == 0, "\(advanced.errors)")
        let url = ["MOCK_APNS_URL": "https://localhost:\(server.port)"]
        for _ in 0..<2 {
            let pushed = try await PushCommandTests.push([PushCommandTests.device, "--alert", "hi"], environment: url)
            #expect(pushed.status == 0, "\(pushed.errors)")
            #expect(pushed.output.hasPrefix("200 OK\n"), "\(pushed.output)")
        }
    }
}
