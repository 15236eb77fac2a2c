import Foundation
import Testing

@testable import MockAPNs

/// The scenario fields of the other push types (phone.md §2, §3, §6): `pttChannel`, `locationAuthorization` and
/// `complicationOnFace` on a phone's app; `pushToTalk`, `locationExtension` and `fileProviderDomains` on an app;
/// `pttAfterForceQuit`, `complicationPerDay` and `widgetPushesPerDay` in `simulation:`. They load, bad values are
/// refused at their line and field, and a scenario document writes them back so that they load the same.
@Suite("the other push types' fields in scenarios")
struct PhoneOtherTypesLoaderTests {
    static let yaml = """
        apps:
          - bundleID: com.example.app
            entitlements: [pushToTalk]
            pushToTalk:
              - { match: { payload: { leave: { exists: true } } }, does: leaveChannel }
              - { does: activeParticipant }
            locationExtension: slow
            fileProviderDomains: [work, personal]
        phones:
          alice:
            apps:
              com.example.app: { pttChannel: left, locationAuthorization: whenInUse, complicationOnFace: false }
        simulation:
          pttAfterForceQuit: drop
          complicationPerDay: 10
          widgetPushesPerDay: 5
        """

    func parse(_ yaml: String) throws(ScenarioError) -> Scenario { try ScenarioText.load(yaml, file: "types.yaml") }

    /// Loads `yaml` and answers the error, which must name the line and a field.
    func refusal(_ yaml: String) throws -> ScenarioError {
        let error = try #require(ScenarioText.error(yaml, file: "types.yaml"), "\(yaml)")
        #expect(error.line != nil && !error.field.isEmpty && error.file == "types.yaml", "\(error)")
        return error
    }

    @Test("loads every field of the other push types")
    func everyField() throws {
        let scenario = try parse(Self.yaml)
        let app = try #require(scenario.phones["alice"]).app("com.example.app")
        #expect(app.pttChannel == .left && app.locationAuthorization == .whenInUse && !app.complicationOnFace)
        let behaviour = try #require(scenario.world.phone.apps["com.example.app"])
        #expect(behaviour.pushToTalk.cases.map(\.action) == [.leaveChannel])
        #expect(behaviour.pushToTalk.otherwise == .activeParticipant)
        #expect(behaviour.locationExtension.isPlain(.slow))
        #expect(behaviour.fileProviderDomains == ["work", "personal"])
        let settings = scenario.world.phone.settings
        #expect(settings.pttAfterForceQuit == .drop && settings.complicationPerDay == 10)
        #expect(settings.widgetPushesPerDay == 5)
        let defaults = SimulationSettings()
        #expect(defaults.pttAfterForceQuit == .launch && defaults.complicationPerDay == 50)
        #expect(defaults.widgetPushesPerDay == nil)
        let unlimited = try parse("simulation: { complicationPerDay: unlimited }\n")
        #expect(unlimited.world.phone.settings.complicationPerDay == nil)
    }

    @Test("a scenario document writes the fields back, and they load the same")
    func writesBack() throws {
        let scenario = try parse(Self.yaml)
        let snapshot = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: scenario.rules, declarations: scenario)
        let document = snapshot.document
        #expect(document["simulation"]?["complicationPerDay"] == 10)
        #expect(document["simulation"]?["widgetPushesPerDay"] == 5)
        #expect(document["simulation"]?["pttAfterForceQuit"] == "drop")
        let again = try parse(document.jsonText)
        #expect(again.phones == scenario.phones && again.world.phone.settings == scenario.world.phone.settings)
        let written = try #require(again.world.phone.apps["com.example.app"])
        let original = try #require(scenario.world.phone.apps["com.example.app"])
        #expect(JSONValue.object(written.scenarioMembers) == JSONValue.object(original.scenarioMembers))
        #expect(written.scenarioMembers.map(\.0).contains("fileProviderDomains"))
        let unlimited = try parse("simulation: { complicationPerDay: unlimited }\n")
        #expect(unlimited.world.phone.settings.scenarioJSON["complicationPerDay"] == "unlimited")
    }

    @Test("refuses bad values, naming the field and the line")
    func refuses() throws {
        let zero = try refusal("simulation: { complicationPerDay: 0 }\n")
        #expect(zero.field == "simulation.complicationPerDay" && zero.message.contains("between"), "\(zero)")
        let huge = try refusal("simulation: { widgetPushesPerDay: 99999999999999999999 }\n")
        #expect(huge.field == "simulation.widgetPushesPerDay", "\(huge)")
        let word = try refusal("simulation: { widgetPushesPerDay: lots }\n")
        #expect(word.message.contains("unlimited"), "\(word)")
        let choice = try refusal("simulation: { pttAfterForceQuit: relaunch }\n")
        #expect(choice.message.contains("launch, drop"), "\(choice)")
        let channel = try refusal("phones: { a: { apps: { com.x: { pttChannel: gone } } } }\n")
        #expect(channel.field == "phones.a.apps.com.x.pttChannel" && channel.message.contains("joined, left"))
        let location = try refusal("phones: { a: { apps: { com.x: { locationAuthorization: sometimes } } } }\n")
        #expect(location.message.contains("always, whenInUse, never"), "\(location)")
        let face = try refusal("phones: { a: { apps: { com.x: { complicationOnFace: 1 } } } }\n")
        #expect(face.message.contains("true or false"), "\(face)")
        let ptt = try refusal("apps:\n  - { bundleID: com.x, pushToTalk: speak }\n")
        #expect(ptt.field == "apps[0].pushToTalk" && ptt.message.contains("activeParticipant, leaveChannel"))
        #expect(
            try refusal("apps:\n  - { bundleID: com.x, locationExtension: [{ match: { topic: x } }] }\n").message
                .contains("'does'"))
        let twice = try refusal("apps:\n  - { bundleID: com.x, fileProviderDomains: [work, work] }\n")
        #expect(twice.field == "apps[0].fileProviderDomains[1]" && twice.message.contains("twice"), "\(twice)")
        #expect(try refusal("apps:\n  - { bundleID: com.x, fileProviderDomains: [\"\"] }\n").message.contains("empty"))
    }
}
