import Foundation
import Testing
@testable import MockAPNs

@Suite("Scenario documents")
struct ScenarioDocumentTests {
    @Test("a world written as a scenario document loads back the same, fidelity settings included")
    func roundTrip() throws {
        var world = ValidatorFixture().world
        world.environment = .production
        world.devicePolicy = .strict
        world.fidelity.singleStreamUntilAuthenticated = false
        world.fidelity.maxConcurrentStreams = 500
        world.fidelity.topicSuffixMismatch = .topicDisallowed
        world.fidelity.backgroundPriorityTen = .badPriority
        world.fidelity.invalidJSONPayload = .payloadEmpty
        world.fidelity.badEnvironmentKeyReasonName = "BadEnvironmentKeyIdInToken"
        world.fidelity.missingPushTypeIsAlert = false
        world.fidelity.certificateEnvironmentMismatch = .reject
        world.fidelity.providerTokenMinimumInterval = 60
        world.devices = [ValidatorFixture.device: Device(token: ValidatorFixture.device, bundleID: "com.example.app")]

        let document = ScenarioSnapshot(name: "round-trip", world: world, rules: []).document
        let loaded = try ScenarioLoader.parse(yaml: document.jsonText, sourcePath: nil, baseDirectory: "/")
        #expect(loaded.world.fidelity == world.fidelity)
        #expect(loaded.world.environment == .production)
        #expect(loaded.world.devicePolicy == .strict)
        #expect(loaded.world.devices == world.devices)
        #expect(Set(loaded.world.keys.keys) == Set(world.keys.keys))
    }

    @Test("the default fidelity settings survive the round trip unchanged")
    func defaults() throws {
        let document = FidelitySettings().scenarioJSON
        let yaml = JSONValue.object([("fidelity", document)]).jsonText
        let loaded = try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
        #expect(loaded.world.fidelity == FidelitySettings())
    }
}
