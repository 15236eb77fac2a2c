import Foundation
import Testing

@testable import MockAPNs

/// The scenario's `liveActivity:` section: every key loads, every kind of bad value is refused at its line and
/// field, and a scenario document writes the section back so that it loads to the same settings.
@Suite("liveActivity settings in scenarios")
struct LiveActivitySettingsLoaderTests {
    static let updateToken = String(repeating: "cd", count: 80)

    func parse(_ yaml: String) throws(ScenarioError) -> Scenario { try ScenarioText.load(yaml, file: "phone.yaml") }

    func loadError(_ yaml: String) -> ScenarioError? { ScenarioText.error(yaml, file: "phone.yaml") }

    static let everyKey = """
        liveActivity:
          maxActive: 4h
          maxVisible: 6h
          defaultDismissal: 30m
          tokenWithoutInputPushToken: false
          startNeedsAlert: false
          futureTimestampLimit: off
          oldTimestampLimit: 120s
          dateWarningThreshold: 720h
          priority10UpdatesPerHour: unlimited
          startsPerWindow: 3
          startWindow: 1m
          endedTokenUnregistered: 1.5s
        """

    @Test("accepts every key, with off and unlimited")
    func everyKeyLoads() throws {
        let settings = try parse(Self.everyKey).liveActivity
        #expect(
            settings.lifetimes == ActivityLifetimes(maxActive: 4 * 3600, maxVisible: 6 * 3600, defaultDismissal: 1800))
        #expect(!settings.tokenWithoutInputPushToken)
        #expect(!settings.startNeedsAlert)
        #expect(settings.futureTimestampLimit == nil)
        #expect(settings.oldTimestampLimit == 120)
        #expect(settings.dateWarningThreshold == 30 * 86_400)
        #expect(settings.priority10UpdatesPerHour == nil)
        #expect(settings.startsPerWindow == 3)
        #expect(settings.startWindow == 60)
        #expect(settings.endedTokenUnregistered == 1.5)
    }

    @Test("an absent section, or an empty one, is the defaults")
    func defaults() throws {
        #expect(try parse("name: x\n").liveActivity == LiveActivitySettings())
        #expect(try parse("liveActivity: {}\n").liveActivity == LiveActivitySettings())
        let turnedOn = try parse("liveActivity:\n  futureTimestampLimit: 1h\n  priority10UpdatesPerHour: 5\n")
        #expect(turnedOn.liveActivity.futureTimestampLimit == 3600)
        #expect(turnedOn.liveActivity.priority10UpdatesPerHour == 5)
        #expect(turnedOn.liveActivity.endedTokenUnregistered == nil)
    }

    /// Loads `liveActivity:` with `key: value` and answers the error, which must name the line and the field.
    func refusal(_ key: String, _ value: String) throws -> ScenarioError {
        let error = try #require(loadError("name: x\nliveActivity:\n  \(key): \(value)\n"), "\(key): \(value)")
        #expect(error.file == "phone.yaml")
        #expect(error.line == 3, "\(key): \(value)")
        #expect(error.field == "liveActivity.\(key)", "\(key): \(value)")
        return error
    }

    @Test("refuses an unknown key with a did-you-mean")
    func unknownKey() throws {
        let error = try refusal("maxActiv", "8h")
        #expect(error.message.hasPrefix("unknown field 'maxActiv' (did you mean 'maxActive'?)"), "\(error.message)")
    }

    @Test("refuses a duration without a unit")
    func durationWithoutUnit() throws {
        let error = try refusal("startWindow", "600")
        #expect(error.message.contains("a duration needs a unit"), "\(error.message)")
    }

    @Test("refuses a duration that is not one")
    func notADuration() throws {
        let error = try refusal("maxActive", "soon")
        #expect(error.message.contains("expected a duration such as"), "\(error.message)")
    }

    @Test("refuses a zero lifetime and a zero window")
    func zeroDuration() throws {
        #expect(try refusal("maxActive", "0s").message == "must be from 1s to 168h, got '0s'")
        #expect(try refusal("startWindow", "0ms").message == "must be from 1s to 24h, got '0ms'")
    }

    @Test("refuses a negative duration")
    func negativeDuration() throws {
        #expect(try refusal("defaultDismissal", "-1h").message.contains("must not be negative"))
    }

    @Test("refuses durations above their bounds")
    func tooLong() throws {
        #expect(try refusal("maxVisible", "200h").message == "must be from 1s to 168h, got '200h'")
        #expect(try refusal("endedTokenUnregistered", "9000h").message == "must be from 0ms to 8760h, got '9000h'")
        #expect(try refusal("dateWarningThreshold", "90000h").message == "must be from 1s to 87600h, got '90000h'")
    }

    @Test("refuses off where a setting cannot be turned off, and unlimited where it is not a budget")
    func wrongWord() throws {
        #expect(try refusal("maxActive", "off").message.contains("expected a duration such as"))
        #expect(try refusal("oldTimestampLimit", "unlimited").message.contains("expected a duration such as"))
        let budget = try refusal("startsPerWindow", "off")
        #expect(budget.message == "expected a number of pushes (at least 1) or unlimited; got 'off'")
    }

    @Test("refuses a budget of zero, a negative one and one too large")
    func badBudget() throws {
        let zero = try refusal("startsPerWindow", "0")
        #expect(
            zero.description == "phone.yaml:3:20: liveActivity.startsPerWindow: must be between 1 and 1000000, got 0")
        #expect(try refusal("priority10UpdatesPerHour", "-5").message == "must be between 1 and 1000000, got -5")
        #expect(try refusal("priority10UpdatesPerHour", "2000000").message.contains("got 2000000"))
    }

    @Test("refuses a budget written as text or a fraction")
    func budgetNotANumber() throws {
        #expect(try refusal("startsPerWindow", "\"10\"").message.hasPrefix("expected a number of pushes"))
        #expect(try refusal("startsPerWindow", "2.5").message.hasPrefix("expected a number of pushes"))
    }

    @Test("refuses a switch that is not true or false")
    func badSwitch() throws {
        #expect(try refusal("startNeedsAlert", "maybe").message == "expected true or false, got 'maybe'")
    }

    @Test("refuses a setting given as a mapping or a list")
    func wrongShape() throws {
        #expect(try refusal("futureTimestampLimit", "{ hours: 8 }").message.contains("got a mapping"))
        #expect(try refusal("maxActive", "[8h]").message.contains("got a list"))
    }

    @Test("refuses maxVisible shorter than maxActive, at the field that was given")
    func visibleShorterThanActive() throws {
        let both = try #require(loadError("liveActivity:\n  maxActive: 10h\n  maxVisible: 9h\n"))
        #expect(both.line == 3)
        #expect(both.field == "liveActivity.maxVisible")
        #expect(both.message.hasPrefix("maxVisible (9h) must be at least maxActive (10h)"), "\(both.message)")
        let active = try #require(loadError("liveActivity:\n  maxActive: 13h\n"))
        #expect(active.line == 2)
        #expect(active.field == "liveActivity.maxActive")
    }

    @Test("refuses a section that is not a mapping")
    func notAMapping() throws {
        let error = try #require(loadError("liveActivity: on\n"))
        #expect(error.field == "liveActivity")
        #expect(error.message.hasPrefix("expected a mapping with fields maxActive"))
    }

    @Test("a live-activity token may name its attributesType; an app token may not")
    func liveActivityAttributesType() throws {
        let yaml = """
            activityTypes:
              mpushTakeoutAttributes: { contentState: { status: Int } }
            devices:
              - { token: \(Self.updateToken), kind: live-activity, attributesType: mpushTakeoutAttributes }
            """
        #expect(try parse(yaml).world.devices[Self.updateToken]?.attributesType == "mpushTakeoutAttributes")
        let misnamed = yaml.replacingOccurrences(of: "attributesType: mpushTakeout", with: "attributesType: X")
        let unknown = try #require(loadError(misnamed))
        #expect(unknown.field == "devices[0].attributesType")
        #expect(unknown.message.hasPrefix("unknown activity type 'XAttributes'"))
    }

    @Test("a scenario document writes only the settings that differ, and loads back the same settings")
    func roundTrip() throws {
        let scenario = try parse(Self.everyKey)
        let document = ScenarioSnapshot(name: "x", world: scenario.world, rules: [], declarations: scenario).document
        #expect(document["liveActivity"]?["maxActive"] == "4h")
        #expect(document["liveActivity"]?["futureTimestampLimit"] == "off")
        #expect(document["liveActivity"]?["priority10UpdatesPerHour"] == "unlimited")
        #expect(document["liveActivity"]?["endedTokenUnregistered"] == "1.5s")
        let reloaded = try parse(document.jsonText)
        #expect(reloaded.liveActivity == scenario.liveActivity)

        let one = try parse("liveActivity:\n  endedTokenUnregistered: 0s\n")
        let written = ScenarioSnapshot(name: "x", world: one.world, rules: [], declarations: one).document
        #expect(written["liveActivity"]?.objectMembers?.map(\.0) == ["endedTokenUnregistered"])
        #expect(try parse(written.jsonText).liveActivity == one.liveActivity)

        let plain = try parse("name: x\n")
        let none = ScenarioSnapshot(name: "x", world: plain.world, rules: [], declarations: plain).document
        #expect(none["liveActivity"] == nil)
    }
}
