import Foundation
import Testing

@testable import MockAPNs

/// `LiveActivity.state(at:)`: the 8-hour, 12-hour, dismissal and stale limits, computed from the clock.
@Suite("LiveActivity state")
struct LiveActivityStateTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A taxi activity started at `start`.
    static func taxi() -> LiveActivity {
        LiveActivity(
            id: "A", attributesType: "mpushTaxiAttributes", attributes: ["appName": "Taxi", "appLogo": "logo"],
            contentState: ["status": "1"], updateToken: "", pushToStartToken: "p2s", startedAt: start,
            timestamp: start.timeIntervalSince1970)
    }

    func at(_ seconds: TimeInterval) -> Date { Self.start.addingTimeInterval(seconds) }

    @Test("is active until exactly 8 hours, then ended, then dismissed at exactly 12 hours")
    func automaticEnd() {
        let activity = Self.taxi()
        #expect(activity.state(at: at(0)) == .active)
        #expect(activity.state(at: at(8 * 3600 - 0.001)) == .active)
        #expect(activity.state(at: at(8 * 3600)) == .ended)
        #expect(activity.state(at: at(12 * 3600 - 0.001)) == .ended)
        #expect(activity.state(at: at(12 * 3600)) == .dismissed)
    }

    @Test("an end without dismissal-date stays 4 hours, capped at 12 hours after the start")
    func endWithoutDismissalDate() {
        var activity = Self.taxi()
        activity.endedAt = at(3600)
        #expect(activity.state(at: at(3600)) == .ended)
        #expect(activity.state(at: at(5 * 3600 - 1)) == .ended)
        #expect(activity.state(at: at(5 * 3600)) == .dismissed)
        activity.endedAt = at(10 * 3600)
        #expect(activity.endDate() == at(8 * 3600))
        #expect(activity.dismissDate() == at(12 * 3600))
    }

    @Test("a past dismissal-date dismisses at once, a future one when it comes")
    func dismissalDate() {
        var activity = Self.taxi()
        activity.endedAt = at(3600)
        activity.dismissalDate = at(-60)
        #expect(activity.state(at: at(3600)) == .dismissed)
        activity.dismissalDate = at(2 * 3600)
        #expect(activity.state(at: at(2 * 3600 - 1)) == .ended)
        #expect(activity.state(at: at(2 * 3600)) == .dismissed)
        activity.dismissalDate = at(20 * 3600)
        #expect(activity.state(at: at(12 * 3600)) == .dismissed)
    }

    @Test("a stale-date turns it stale while it runs, and running covers active and stale")
    func stale() {
        var activity = Self.taxi()
        activity.staleDate = at(600)
        #expect(activity.state(at: at(599)) == .active)
        #expect(activity.state(at: at(600)) == .stale)
        #expect(activity.state(at: at(600)).isRunning)
        #expect(activity.state(at: at(8 * 3600)) == .ended)
        #expect(!ActivityState.ended.isRunning && !ActivityState.dismissed.isRunning)
    }

    @Test("the limits are settings")
    func customLifetimes() {
        let activity = Self.taxi()
        let short = ActivityLifetimes(maxActive: 60, maxVisible: 90, defaultDismissal: 10)
        #expect(activity.state(at: at(59), lifetimes: short) == .active)
        #expect(activity.state(at: at(60), lifetimes: short) == .ended)
        #expect(activity.state(at: at(70), lifetimes: short) == .dismissed)
    }
}

/// `DeviceOutcome`'s JSON form and summary.
@Suite("DeviceOutcome")
struct DeviceOutcomeTests {
    @Test("writes every member in order and reads itself back")
    func roundTrip() throws {
        let outcome = DeviceOutcome(
            .started, rule: .activityStarted, activityID: "A", updateToken: "ab", warnings: ["w"],
            notes: ["no input-push-token"])
        #expect(
            outcome.json.jsonText
                == #"{"outcome":"started","rule":"activity-started","reason":null,"trace":["activity-started"],"#
                + #""related":null,"activity":"A","updateToken":"ab","warnings":["w"],"#
                + #""notes":["no input-push-token"]}"#)
        #expect(DeviceOutcome(json: outcome.json) == outcome)
        let parsed = try JSONParser.parse(outcome.json.jsonText)
        #expect(DeviceOutcome(json: parsed) == outcome)
    }

    @Test("refuses a missing or unknown outcome")
    func refusesUnknown() {
        #expect(DeviceOutcome(json: ["outcome": "exploded"]) == nil)
        #expect(DeviceOutcome(json: ["reason": "x"]) == nil)
        #expect(DeviceOutcome(json: "applied") == nil)
    }

    @Test("summarises as outcome, then reason")
    func summary() {
        #expect(DeviceOutcome(.applied).summary == "applied")
        #expect(DeviceOutcome(.ignored, reason: "activity ended").summary == "ignored: activity ended")
    }
}
