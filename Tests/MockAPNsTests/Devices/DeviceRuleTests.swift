import Foundation
import Testing

@testable import MockAPNs

/// `DeviceRule`, the ids of phone.md §5, and the rule each Live Activity outcome now carries.
@Suite("DeviceRule")
struct DeviceRuleTests {
    @Test("every rule has a unique kebab-case id, a tag and a source, and is found by its id")
    func catalogue() {
        let ids = DeviceRule.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in DeviceRule.all {
            #expect(
                rule.id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } && !rule.id.hasPrefix("-"), "\(rule)")
            #expect(!rule.source.isEmpty, "\(rule)")
            #expect(DeviceRule.named(rule.id) == rule)
        }
        #expect(DeviceRule.named("no-such-rule") == nil)
    }

    @Test("a rule id this version does not know reads back as a rule of that id, tagged open")
    func unknownID() throws {
        let json = try JSONParser.parse(#"{"outcome":"shown","rule":"a-future-rule","trace":["a-future-rule"]}"#)
        let outcome = try #require(DeviceOutcome(json: json))
        #expect(outcome.rule?.id == "a-future-rule" && outcome.rule?.tag == .open)
        #expect(outcome.json["rule"] == "a-future-rule" && outcome.json["trace"] == ["a-future-rule"])
    }

    @Test("an outcome's trace defaults to its rule; fired(_:) finds the deciding rule and the modifiers")
    func fired() {
        let plain = DeviceOutcome(.ignored, rule: .activityAfterEnd)
        #expect(plain.trace == [.activityAfterEnd] && plain.fired(.activityAfterEnd))
        let traced = DeviceOutcome(.shown, rule: .soundNotBundled, trace: [.alertShown, .soundNotBundled])
        #expect(traced.fired(.alertShown) && traced.fired(.soundNotBundled) && !traced.fired(.badgeOff))
        #expect(DeviceOutcome(.applied).trace.isEmpty && DeviceOutcome(.applied).rule == nil)
    }

    @Test("Live Activity outcomes carry their activity- rule ids")
    func liveActivityRules() throws {
        let receive = ActivityReceiveTests()
        let started = try #require(receive.start(receive.startAPS()))
        #expect(started.rule == .activityStarted)
        let token = try #require(started.updateToken)
        let t = ActivityReceiveTests.t
        #expect(receive.send(token, "update", timestamp: t + 10)?.rule == .activityApplied)
        #expect(receive.send(token, "update", timestamp: t + 5)?.rule == .activityOlderTimestamp)
        #expect(receive.send(token, "update", timestamp: t + 11, state: ["status": 3])?.rule == .activityNotDecodable)
        #expect(receive.send(token, "end", timestamp: t + 12)?.rule == .activityEnded)
        #expect(receive.send(token, "update", timestamp: t + 13)?.rule == .activityAfterEnd)
        let unknownType = receive.start(receive.startAPS { $0[2] = ("attributes-type", "Nope") })
        #expect(unknownType?.rule == .activityUnknownType && unknownType?.kind == .dropped)
        let noAlert = receive.start(receive.startAPS { $0.removeAll { $0.0 == "alert" } })
        #expect(noAlert?.rule == .activityStartNeedsAlert)
        let future = receive.start(receive.startAPS { $0[1] = ("timestamp", .number(String(Int(t) + 86_400))) })
        #expect(future?.rule == .activityFutureTimestamp)
    }

    @Test("an activity counts its pushes by the Live Activity kinds only")
    func activityKinds() throws {
        let activity = LiveActivity(
            id: "A", attributesType: "T", attributes: .null, contentState: .null, updateToken: "t",
            pushToStartToken: nil, startedAt: Date(), timestamp: 0)
        #expect(Set(activity.outcomeCounts.keys) == Set(DeviceOutcome.Kind.activityKinds))
    }
}
