import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// A scenario becomes the engine's state in one place, `MockAPNsEngine.apply(_:)`, which a server start, a reset
/// and a load all call; and an input error from below `Control/` answers the same in-process and over HTTP.
@Suite("A scenario is applied in one place")
struct ScenarioApplyTests {
    static let declared = String(repeating: "ab", count: 32)
    static let yaml = """
        name: applied
        activityTypes:
          taxi:
            attributes: { appName: String }
            contentState: { eta: String? }
        liveActivity: { startsPerWindow: 3 }
        tokenUpload: { url: http://127.0.0.1:9/la-tokens }
        devices:
          - token: \(declared)
            kind: live-activity
            attributesType: taxi
        rules:
          - name: refuse the old topic
            match: { topic: com.example.old }
            respond: { status: 400, reason: BadTopic }
        """

    /// Each part of the engine a scenario decides, read back.
    struct Applied: Equatable {
        var devices: [String]
        var rules: [String]
        var types: [String]
        var startsPerWindow: Int?
        var tokenUpload: TokenUploadSettings?
        var activities: [String]

        init(_ engine: MockAPNsEngine) {
            devices = engine.world.devices.keys.sorted()
            rules = engine.rules.rules.map(\.name)
            let config = engine.activityConfig.withLockedValue { $0 }
            types = config.types.keys.sorted()
            startsPerWindow = config.settings.startsPerWindow
            tokenUpload = config.tokenUpload
            activities = engine.activities.activities.map {
                "\($0.attributesType) \($0.updateToken)" + ($0.dismissedAt == nil ? "" : " dismissed")
            }
        }
    }

    static func scenario() throws -> Scenario {
        try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
    }

    @Test("apply puts the world, rules, activity types, phone settings, token upload and declared activities in force")
    func apply() throws {
        let scenario = try Self.scenario()
        let engine = MockAPNsEngine(world: World(), rules: [], journal: try Journal(capacity: 10))
        engine.apply(scenario)
        let applied = Applied(engine)
        #expect(applied.devices == [Self.declared])
        #expect(applied.rules == ["refuse the old topic"])
        #expect(applied.types == ["taxi"])
        #expect(applied.startsPerWindow == 3)
        #expect(applied.tokenUpload == TokenUploadSettings(url: "http://127.0.0.1:9/la-tokens"))
        #expect(applied.activities == ["taxi \(Self.declared)"])

        // Applied again, the declared activity starts over rather than running twice.
        engine.apply(scenario)
        #expect(Applied(engine) == applied)

        // Another scenario replaces every part: nothing of the first is left.
        engine.apply(.embeddedDefault(port: 0))
        let replaced = Applied(engine)
        #expect(!replaced.devices.contains(Self.declared))
        #expect(replaced.rules.isEmpty && replaced.types.isEmpty && replaced.activities.isEmpty)
        #expect(replaced.tokenUpload == nil && replaced.startsPerWindow == LiveActivitySettings().startsPerWindow)
    }

    @Test("start, reset and a load of the same scenario leave the engine the same")
    func startResetLoad() async throws {
        try await withTestServer(scenario: try Self.scenario()) { server in
            let started = Applied(server.engine)
            #expect(started.activities == ["taxi \(Self.declared)"])

            try await server.addDevices([Device(token: String(repeating: "cd", count: 32))])
            try await server.clearRules()
            _ = try await server.dismissActivity(id: try #require(server.engine.activities.activities.first?.id))
            #expect(Applied(server.engine) != started)
            try await server.reset()
            #expect(Applied(server.engine) == started)

            _ = try await server.loadScenario(yaml: "name: other")
            #expect(Applied(server.engine) != started)
            _ = try await server.loadScenario(yaml: Self.yaml)
            #expect(Applied(server.engine) == started)
        }
    }

    @Test("an InputError from below Control/ is a 400 with its message over HTTP, and in-process the same")
    func inputErrorIsA400() async throws {
        let move = ClockMove.advance(.seconds(87_661 * 3600))
        let tooFar = move.json.jsonText
        let inputError = try #require(throws: InputError.self) { try ClockMove(json: tooFar) }
        #expect(inputError.message == "advance: must be at most 87660h, got '87661h'")
        let moveError = try #require(throws: InputError.self) { try MovableClock().move(move) }
        #expect(moveError.message.hasPrefix("advance: the clock would be "))

        try await withControlServer { server, control in
            let inProcess = try await #require(throws: MockAPNsControlError.self) { try await server.moveClock(move) }
            #expect(inProcess == MockAPNsControlError(moveError))
            let client = MockAPNsControlClient(url: control.url)
            let overHTTP = try await #require(throws: MockAPNsControlError.self) { try await client.moveClock(move) }
            // The client sends the body `tooFar` is: the server's body check refuses it, through the middleware.
            #expect(overHTTP == MockAPNsControlError(status: 400, inputError.message))

            let body = try await #require(throws: MockAPNsControlError.self) {
                try await client.records(JournalQuery(limit: 0))
            }
            #expect(body.status == 400 && body.message == "limit must be a whole number of at least 1, got '0'")
        }
    }
}
