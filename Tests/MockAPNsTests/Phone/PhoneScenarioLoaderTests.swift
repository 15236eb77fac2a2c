import Foundation
import Testing

@testable import MockAPNs

/// The scenario's phone parts (phone.md §2, §3, §6): `phones:`, a device's `phone:`, the app fields that say what
/// its code does, and `simulation:`. Every field loads, bad input is refused at its line and field, and a scenario
/// document writes them back so that they load the same.
@Suite("phones, apps and simulation in scenarios")
struct PhoneScenarioLoaderTests {
    static let token = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979"

    func parse(_ yaml: String) throws(ScenarioError) -> Scenario { try ScenarioText.load(yaml, file: "phone.yaml") }

    func loadError(_ yaml: String) -> ScenarioError? { ScenarioText.error(yaml, file: "phone.yaml") }

    static let everything = """
        apps:
          - bundleID: com.example.app
            teamID: TESTTEAM01
            entitlements: [criticalAlerts, filtering]
            backgroundModes: [remote-notification]
            willPresent: [banner, sound]
            categories: [ORDER]
            sounds: { chime.caf: 2s, siren.caf: 45s, plain.caf: null }
            serviceExtension:
              does: modify
              set: { title: New message }
              peakMemory: 18MiB
              protectedData: true
              cases:
                - { match: { payload: { ciphertext: { exists: false } } }, does: hang }
                - { does: suppress }
            backgroundHandler: timesOut
            voip:
              - { match: { payload: { callID: { exists: false } } }, does: doesNotReport }
              - { does: reports, set: { caller: Mum } }
          - bundleID: com.example.plain
        phones:
          alice:
            locked: true
            lowPowerMode: true
            focus:
              { name: Sleep, allowedApps: [com.example.chat], timeSensitive: false, allowedPeople: [Mum], filter: work }
            scheduledSummary: true
            callActive: true
            apps:
              com.example.app:
                state: forceQuit
                authorization: provisional
                settings: { sounds: false, inSummary: true, showPreviews: never }
                backgroundAppRefresh: false
                debugger: true
                voipFailures: 2
          bob: {}
        devices:
          - { token: \(token), app: com.example.app, phone: alice }
        simulation:
          backgroundWhenDenied: discard
          backgroundBudget: 3
          backgroundBudgetWindow: 30m
          backgroundBudgetCountsAlerts: true
          heldRelease: onOpen
          powerStorage: lowPriority
          backgroundPriorityTen: notLaunched
          voipSuspendAfter: 3
          voipMustReport: always
          criticalWithoutEntitlement: honour
          timeSensitiveWithoutEntitlement: honour
          serviceExtensionMemoryLimit: 12MiB
          serviceExtensionWhenProvisional: skip
        """

    @Test("loads every phone, app and simulation field")
    func everyField() throws {
        let scenario = try parse(Self.everything)
        let alice = try #require(scenario.phones["alice"])
        #expect(alice.locked && alice.lowPowerMode && alice.scheduledSummary && alice.callActive && alice.online)
        #expect(
            alice.focus
                == PhoneFocus(
                    name: "Sleep", allowedApps: ["com.example.chat"], timeSensitive: false, allowedPeople: ["Mum"],
                    filter: "work"))
        let app = alice.app("com.example.app")
        #expect(app.state == .forceQuit && app.authorization == .provisional)
        #expect(!app.settings.sounds && app.settings.inSummary && app.settings.showPreviews == .never)
        #expect(app.settings.alerts && !app.backgroundAppRefresh && app.debugger && app.voipFailures == 2)
        #expect(scenario.phones["bob"] == PhoneState())
        #expect(scenario.world.devices[Self.token]?.phone == "alice")

        let behaviour = try #require(scenario.world.phone.apps["com.example.app"])
        #expect(behaviour.entitlements == [.criticalAlerts, .filtering])
        #expect(behaviour.backgroundModes == [.remoteNotification])
        #expect(behaviour.willPresent == .options([.banner, .sound]))
        #expect(behaviour.categories == ["ORDER"])
        #expect(behaviour.sounds?["siren.caf"] == .some(45) && behaviour.sounds?["plain.caf"] == .some(nil))
        guard case .present(let nse) = behaviour.serviceExtension else {
            Issue.record("no service extension")
            return
        }
        #expect(nse.handling.otherwise == ServiceExtension.Handling(.modify, set: .init(title: "New message")))
        #expect(nse.handling.cases.map(\.action.does) == [.hang, .suppress])
        #expect(nse.peakMemory == 18 << 20 && nse.protectedData)
        #expect(behaviour.backgroundHandler.otherwise == .timesOut)
        #expect(behaviour.voip.cases.map(\.action) == [.init(reports: false)])
        #expect(behaviour.voip.otherwise == .init(reports: true, caller: "Mum"), "a last case without match")
        #expect(scenario.world.phone.apps["com.example.plain"] == nil, "an app that declares nothing is left out")
        #expect(scenario.world.apps["com.example.app"]?.teamID == "TESTTEAM01")

        let settings = scenario.world.phone.settings
        #expect(settings.backgroundWhenDenied == .discard && settings.backgroundBudget == 3)
        #expect(settings.backgroundBudgetWindow == 1800 && settings.backgroundBudgetCountsAlerts)
        #expect(settings.backgroundPriorityTen == .notLaunched && settings.voipSuspendAfter == 3)
        #expect(settings.voipMustReport == .always && settings.criticalWithoutEntitlement == .honour)
        #expect(settings.timeSensitiveWithoutEntitlement == .honour)
        #expect(settings.heldRelease == .onOpen && settings.powerStorage == .lowPriority)
        #expect(settings.serviceExtensionMemoryLimit == 12 << 20 && settings.serviceExtensionWhenProvisional == .skip)
        #expect(settings.enabled)
    }

    @Test("a scenario without the sections has no phones, no app declarations and the default settings")
    func defaults() throws {
        let scenario = try parse("devices:\n  - { token: \(Self.token) }\n")
        #expect(scenario.phones.isEmpty && scenario.world.phone.apps.isEmpty)
        #expect(scenario.world.phone.settings == SimulationSettings())
        #expect(scenario.world.devices[Self.token]?.phone == nil)
        #expect(try parse("simulation: { enabled: false }\n").world.phone.settings.enabled == false)
    }

    @Test("a scenario document writes back the phones, the app declarations and the settings that differ")
    func writesBack() throws {
        let scenario = try parse(Self.everything)
        let snapshot = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: scenario.rules, declarations: scenario)
        let again = try parse(snapshot.document.jsonText)
        #expect(again.phones == scenario.phones)
        #expect(again.world.devices[Self.token]?.phone == "alice")
        #expect(again.world.phone.settings == scenario.world.phone.settings)
        let document = snapshot.document
        #expect(document["simulation"]?["backgroundBudget"] == 3)
        #expect(document["simulation"]?["heldRelease"] == "onOpen")
        #expect(document["simulation"]?["powerStorage"] == "lowPriority")
        #expect(document["simulation"]?["enabled"] == nil, "only the settings that differ")
        let written = try #require(again.world.phone.apps["com.example.app"])
        let original = try #require(scenario.world.phone.apps["com.example.app"])
        #expect(written.scenarioMembers.map(\.0) == original.scenarioMembers.map(\.0))
        #expect(JSONValue.object(written.scenarioMembers) == JSONValue.object(original.scenarioMembers))
        let defaults = ScenarioSnapshot(name: "d", world: World(), rules: [], declarations: Scenario(name: "d"))
        #expect(defaults.document["simulation"] == nil && defaults.document["phones"] == nil)
    }

    /// Loads `yaml` and answers the error, which must name the line and a field.
    func refusal(_ yaml: String) throws -> ScenarioError {
        let error = try #require(loadError(yaml), "\(yaml)")
        #expect(error.line != nil && !error.field.isEmpty && error.file == "phone.yaml", "\(error)")
        return error
    }

    @Test("refuses unknown fields and names with the field, the line and a suggestion")
    func refusesUnknown() throws {
        let phoneField = try refusal("phones:\n  alice:\n    lowPower: true\n")
        #expect(phoneField.field == "phones.alice.lowPower" && phoneField.line == 3)
        #expect(phoneField.message.contains("did you mean 'lowPowerMode'"), "\(phoneField)")
        let state = try refusal("phones:\n  alice:\n    apps:\n      com.example.app: { state: forcequit }\n")
        #expect(state.field == "phones.alice.apps.com.example.app.state")
        #expect(state.message.contains("did you mean 'forceQuit'"), "\(state)")
        let authorization = try refusal("phones:\n  a:\n    apps: { com.x: { authorization: maybe } }\n")
        #expect(authorization.message.contains("authorized, denied, notDetermined, provisional, ephemeral"))
        let setting = try refusal("phones:\n  a:\n    apps: { com.x: { settings: { banners: false } } }\n")
        #expect(setting.field == "phones.a.apps.com.x.settings.banners")
        let entitlement = try refusal("apps:\n  - { bundleID: com.x, entitlements: [critical] }\n")
        #expect(entitlement.field == "apps[0].entitlements[0]", "\(entitlement)")
        let simulation = try refusal("simulation:\n  backgroundBudgt: 3\n")
        #expect(simulation.message.contains("did you mean 'backgroundBudget'"), "\(simulation)")
        let does = try refusal("apps:\n  - { bundleID: com.x, serviceExtension: { does: explode } }\n")
        #expect(does.field == "apps[0].serviceExtension.does")
        let voip = try refusal("apps:\n  - { bundleID: com.x, voip: sometimes }\n")
        #expect(voip.message.contains("reports, doesNotReport"))
    }

    @Test("refuses a device on a phone the scenario does not declare")
    func refusesUndeclaredPhone() throws {
        let error = try refusal(
            "phones: { alice: {} }\ndevices:\n  - { token: \(Self.token), phone: alcie }\n")
        #expect(error.field == "devices[0].phone" && error.message.contains("did you mean 'alice'"), "\(error)")
        let none = try refusal("devices:\n  - { token: \(Self.token), phone: alice }\n")
        #expect(none.message.contains("it declares none"), "\(none)")
        let badID = try refusal("phones:\n  \"al ice\": {}\n")
        #expect(badID.message.contains("a phone id is 1 to 128 letters"), "\(badID)")
    }

    @Test("refuses numbers out of range and values of the wrong type")
    func refusesBadValues() throws {
        #expect(try refusal("simulation: { backgroundBudget: 0 }\n").message.contains("between 1 and"))
        #expect(try refusal("simulation: { backgroundBudget: lots }\n").message.contains("or unlimited"))
        #expect(try refusal("simulation: { voipSuspendAfter: -1 }\n").message.contains("between 1 and"))
        #expect(
            try refusal("simulation: { backgroundBudgetWindow: 2d }\n").field == "simulation.backgroundBudgetWindow")
        #expect(try refusal("simulation: { serviceExtensionMemoryLimit: 2GiB }\n").message.contains("between"))
        #expect(try refusal("simulation: { enabled: maybe }\n").message.contains("true or false"))
        #expect(try refusal("simulation: { heldRelease: later }\n").message.contains("nextWindow, onOpen"))
        #expect(try refusal("simulation: { powerStorage: on }\n").message.contains("off, lowPriority"))
        #expect(try refusal("phones: { a: { online: 1 } }\n").message.contains("true or false"))
        #expect(
            try refusal("phones: { a: { apps: { com.x: { voipFailures: 2000000 } } } }\n").message.contains("between"))
        #expect(try refusal("phones: { a: { focus: { allowedApps: [x] } } }\n").message.contains("'name'"))
        #expect(
            try refusal("apps:\n  - { bundleID: com.x, sounds: { a.caf: loud } }\n").field == "apps[0].sounds.a.caf")
        #expect(
            try refusal("apps:\n  - { bundleID: com.x, entitlements: [filtering, filtering] }\n").message.contains(
                "twice"))
        #expect(try refusal("apps:\n  - { bundleID: com.x, serviceExtension: maybe }\n").message.contains("none"))
        #expect(
            try refusal("apps:\n  - { bundleID: com.x, backgroundHandler: [{ match: { topic: x } }] }\n").message
                .contains("'does'"))
    }

    @Test("a rule's phone: false loads and is written back; a rule without it reaches the phone")
    func rulePhone() throws {
        let scenario = try parse(
            "rules:\n  - { name: quiet, respond: { status: 200 }, phone: false }\n  - { respond: { status: 200 } }\n")
        #expect(scenario.rules.map(\.phone) == [false, true])
        #expect(scenario.rules[0].scenarioJSON["phone"] == false && scenario.rules[1].scenarioJSON["phone"] == nil)
        #expect(try refusal("rules:\n  - { respond: { status: 200 }, phone: maybe }\n").field == "rules[0].phone")
    }
}
