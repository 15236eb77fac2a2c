import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// The names renamed by the structure review (§4.4) still build for one release and do what the new ones do.
@Suite("Renamed API, old names", .serialized)
struct RenamedAPITests {
    static let device = EndToEndTests.device

    @available(*, deprecated, message: "calls the deprecated names on purpose")
    @Test("requests, request(sequence:), waitForRequests, clearRequests and streamRequests reach the records")
    func controlNames() async throws {
        try await withControlServer { server, control in
            try await sendPush(server)
            let client = MockAPNsControlClient(url: control.url)
            for target in [server as any MockAPNsControl, client] {
                let query: RequestQuery = JournalQuery(token: Self.device)
                #expect(try await target.requests(query).map(\.sequence) == [1])
                #expect(try await target.request(sequence: 1)?.token == Self.device)
                let result: RequestWaitResult = try await target.waitForRequests(query, count: 1, timeout: .seconds(1))
                #expect(result.satisfied)
            }
            let streamed = Task { () -> UInt64? in
                for try await record in client.streamRequests(RequestQuery(since: 0)) { return record.sequence }
                return nil
            }
            #expect(try await streamed.value == 1)
            try await client.clearRequests()
            #expect(try await server.records(JournalQuery()).isEmpty)
        }
    }

    @available(*, deprecated, message: "calls the deprecated names on purpose")
    @Test("ScriptedRuleEngine and controlState name what ScriptedRules and currentScenario hold")
    func serverNames() async throws {
        try await withControlServer { server, _ in
            let rules: ScriptedRuleEngine = server.engine.rules
            #expect(rules.rules.isEmpty)
            #expect(server.controlState.loadedScenario == nil)
            _ = try await server.loadScenario(yaml: "name: loaded\n")
            #expect(server.controlState.loadedScenario?.name == "loaded")
            let stored = try ScenarioLoader.parse(yaml: "name: stored\n", sourcePath: nil, baseDirectory: ".")
            server.controlState.store(stored)
            try await server.reset()
            #expect(server.currentScenario.name == "stored")
            let detached = ControlState()
            detached.store(server.currentScenario)
            #expect(detached.loadedScenario?.name == "stored")
        }
    }
}
