import Foundation
import Testing

@testable import MockAPNs

/// The app's life on the phone in a scenario file (phone.md §2, §3, §6): an app's `lastOpened`, `appClip`, and
/// `simulation.inactiveAppAfter` load, are written back as they were read, and bad values are refused naming the
/// field.
@Suite("phone: lastOpened, appClip and inactiveAppAfter in a scenario")
struct PhoneLifecycleLoaderTests {
    func parse(_ yaml: String) throws(ScenarioError) -> Scenario { try ScenarioText.load(yaml, file: "phone.yaml") }

    /// Loads `yaml` and answers the error, which must name the line and a field.
    func refusal(_ yaml: String) throws -> ScenarioError {
        let error = try #require(ScenarioText.error(yaml, file: "phone.yaml"), "\(yaml)")
        #expect(error.line != nil && !error.field.isEmpty, "\(error)")
        return error
    }

    static let yaml = """
        apps:
          - { bundleID: com.example.clip, appClip: true }
        phones:
          alice:
            apps:
              com.example.app: { lastOpened: 2026-11-01T08:00:00Z }
              com.example.other: { lastOpened: 1785000000 }
        simulation: { inactiveAppAfter: 72h }
        """

    @Test("loads lastOpened as an ISO 8601 time or seconds since 1970, appClip, and inactiveAppAfter")
    func loads() throws {
        let scenario = try parse(Self.yaml)
        let alice = try #require(scenario.phones["alice"])
        #expect(alice.app("com.example.app").lastOpened.map(Timestamp.text) == "2026-11-01T08:00:00.000Z")
        #expect(alice.app("com.example.other").lastOpened == Date(timeIntervalSince1970: 1_785_000_000))
        #expect(alice.app("com.example.none").lastOpened == nil, "an app not listed: the load time")
        #expect(scenario.world.phone.apps["com.example.clip"]?.appClip == true)
        #expect(scenario.world.phone.settings.inactiveAppAfter == TimeInterval(72 * 3600))
        #expect(SimulationSettings().inactiveAppAfter == nil, "off by default")
        let off = try parse("simulation: { inactiveAppAfter: off }\n")
        #expect(off.world.phone.settings.inactiveAppAfter == nil)
    }

    @Test("GET /v1/scenario's document writes them back, and loading it gives the same scenario")
    func writesBack() throws {
        let scenario = try parse(Self.yaml)
        let snapshot = ScenarioSnapshot(
            name: "lifecycle", world: scenario.world, rules: scenario.rules, declarations: scenario)
        let document = snapshot.document
        #expect(document["simulation"]?["inactiveAppAfter"] == "72h", "\(document.jsonText)")
        let apps = document["apps"]?.arrayValue ?? []
        #expect(apps.contains { $0["bundleID"] == "com.example.clip" && $0["appClip"] == true }, "\(apps)")
        let alice = document["phones"]?["alice"]?["apps"]
        #expect(alice?["com.example.app"]?["lastOpened"] == "2026-11-01T08:00:00.000Z", "\(document.jsonText)")
        let again = try ScenarioLoader.parse(yaml: document.jsonText, sourcePath: "again.yaml", baseDirectory: "/")
        #expect(again.phones == scenario.phones)
        #expect(again.world.phone.settings == scenario.world.phone.settings)
        #expect(again.world.phone.apps["com.example.clip"]?.appClip == true)
        let plain = try parse("phones: { bob: {} }\n")
        let plainDocument = ScenarioSnapshot(
            name: "plain", world: plain.world, rules: [], declarations: plain
        ).document
        #expect(plainDocument["simulation"] == nil, "the defaults are not written")
    }

    @Test("refuses a bad time, a bad appClip and an inactiveAppAfter out of range, naming the field")
    func refusesBadValues() throws {
        let time = try refusal("phones:\n  a:\n    apps: { com.x: { lastOpened: yesterday } }\n")
        #expect(time.field == "phones.a.apps.com.x.lastOpened", "\(time)")
        #expect(time.message.contains("expected an ISO 8601 time"), "\(time)")
        let early = try refusal("phones:\n  a:\n    apps: { com.x: { lastOpened: -5 } }\n")
        #expect(early.field == "phones.a.apps.com.x.lastOpened", "\(early)")
        let late = try refusal("phones:\n  a:\n    apps: { com.x: { lastOpened: 1e300 } }\n")
        #expect(late.message.contains("9999-12-31T23:59:59Z"), "\(late)")
        let clip = try refusal("apps:\n  - { bundleID: com.x, appClip: sometimes }\n")
        #expect(clip.field == "apps[0].appClip" && clip.message.contains("true or false"), "\(clip)")
        for bad in ["-5h", "0s", "30s", "9000h", "3d", "soon", "1e400h"] {
            let error = try refusal("simulation: { inactiveAppAfter: \(bad) }\n")
            #expect(error.field == "simulation.inactiveAppAfter", "\(bad): \(error)")
        }
        let typo = try refusal("phones:\n  a:\n    apps: { com.x: { lastOpen: 2026-01-01T00:00:00Z } }\n")
        #expect(typo.message.contains("did you mean 'lastOpened'"), "\(typo)")
    }

    @Test("a PATCH takes lastOpened too; null puts it back to the load time")
    func patch() throws {
        let opened = try ScenarioLoader.appChange(yaml: #"{"lastOpened": "2026-11-02T10:00:00Z"}"#, onto: AppOnPhone())
        #expect(opened.lastOpened.map(Timestamp.text) == "2026-11-02T10:00:00.000Z")
        let cleared = try ScenarioLoader.appChange(yaml: #"{"lastOpened": null}"#, onto: opened)
        #expect(cleared.lastOpened == nil)
        #expect(throws: ScenarioError.self) {
            try ScenarioLoader.appChange(yaml: #"{"lastOpened": "tomorrow-ish"}"#, onto: AppOnPhone())
        }
    }
}
