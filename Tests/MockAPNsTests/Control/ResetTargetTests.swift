import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// `POST /v1/reset` goes back to the scenario the server started with; `?to=loaded` keeps the one loaded last.
@Suite("Reset target")
struct ResetTargetTests {
    static let other = "name: other\nunknownDevices: reject\n"

    @Test("POST /v1/reset forgets a scenario loaded at run time and says so; ?to=loaded keeps it")
    func overHTTP() async throws {
        try await withControlServer { server, control in
            let started = server.currentScenario.name
            #expect(try await ControlCurl.call("PUT", control, "/v1/scenario", body: Self.other).status == 200)
            let loaded = try await ControlCurl.call("POST", control, "/v1/reset?to=loaded")
            #expect(loaded.status == 200, "\(loaded.text)")
            #expect(loaded.json?["scenario"] == "other" && loaded.json?["to"] == "loaded", "\(loaded.text)")
            #expect(server.currentScenario.name == "other")

            let reset = try await ControlCurl.call("POST", control, "/v1/reset")
            #expect(reset.status == 200, "\(reset.text)")
            #expect(reset.json?["scenario"] == .string(started) && reset.json?["to"] == "started", "\(reset.text)")
            #expect(server.currentScenario.name == started)
            let scenario = try await ControlCurl.call("GET", control, "/v1/scenario")
            #expect(scenario.json?["name"] == .string(started))
            #expect(try await ControlCurl.call("POST", control, "/v1/reset?to=started").json?["to"] == "started")
        }
    }

    @Test("a bad target or another parameter is a 400 that names what is allowed, and changes nothing")
    func badTarget() async throws {
        try await withControlServer { server, control in
            _ = try await ControlCurl.call("PUT", control, "/v1/scenario", body: Self.other)
            let misspelt = try await ControlCurl.call("POST", control, "/v1/reset?to=lodaed")
            #expect(misspelt.status == 400)
            #expect(misspelt.error == "to must be started or loaded, got 'lodaed' (did you mean 'loaded'?)")
            let other = try await ControlCurl.call("POST", control, "/v1/reset?scenario=x")
            #expect(other.status == 400)
            #expect(
                other.error?.contains("takes only 'to' (started or loaded), got 'scenario'") == true, "\(other.text)")
            #expect(server.currentScenario.name == "other", "a refused reset changes nothing")
        }
    }

    @Test("in-process and through the Swift client the default is the starting scenario too")
    func inProcessAndClient() async throws {
        try await withControlServer { server, control in
            let started = server.currentScenario.name
            for target in [server as any MockAPNsControl, MockAPNsControlClient(url: control.url)] {
                _ = try await target.loadScenario(yaml: Self.other)
                try await target.reset(to: .loaded)
                #expect(server.currentScenario.name == "other")
                try await target.reset()
                #expect(server.currentScenario.name == started)
            }
        }
    }
}
