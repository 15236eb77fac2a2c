import Foundation
import Testing

@testable import MockAPNs

/// `expect:` and `unexpected:` checked against records: counts, answers, `within`, sequences and the messages.
@Suite("Scenario expectations: checking")
struct ExpectationCheckTests {
    static let token = MatchOperatorTests.token
    static let other = MatchOperatorTests.otherToken
    /// 12:00:00.000 UTC on a fixed day: the run's start.
    static let start = Timestamp.date(fromText: "2026-09-21T12:00:00.000Z") ?? Date(timeIntervalSince1970: 0)

    /// A record `seconds` after the start, answered `status` (and `reason`).
    static func record(
        _ sequence: UInt64, at seconds: Double = 1, token: String = token, topic: String = "com.example.app",
        pushType: String = "alert", title: String = "Order ready", event: String? = nil, status: Int = 200,
        reason: String? = nil
    ) -> JournalRecord {
        let aps = event.map { #"{"event":"\#($0)"}"# } ?? #"{"alert":{"title":"\#(title)"}}"#
        return JournalRecord(
            sequence: sequence, receivedAt: start.addingTimeInterval(seconds), answeredAt: nil, connectionID: 1,
            remoteAddress: "127.0.0.1:1",
            request: APNsRequest(
                method: "POST", path: "/3/device/\(token)",
                headers: [APNsHeader("apns-topic", topic), APNsHeader("apns-push-type", pushType)],
                body: Array(#"{"aps":\#(aps)}"#.utf8)),
            verdict: Verdict(
                outcome: reason.map { .rejected(APNsReason($0, status: status), timestamp: nil) } ?? .accepted,
                rule: "test", explanation: "", pushType: pushType, topic: topic),
            response: APNsResponse(status: status, apnsID: "ID"))
    }

    /// The report of `expect:` (and more) in `yaml` against `records`.
    func verify(_ yaml: String, _ records: [JournalRecord]) throws -> VerifyReport {
        try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
            .verify(records, startedAt: Self.start)
    }

    func item(_ yaml: String, _ records: [JournalRecord]) throws -> VerifyReport.Item {
        try #require(try verify(yaml, records).items.first)
    }

    @Test("an exact count passes on that many matches and fails on fewer or more, listing the extra ones")
    func exactCount() throws {
        let yaml = "expect:\n  - match: { token: \"\(Self.token)\" }\n    count: 2"
        let two = try item(yaml, [Self.record(1), Self.record(2, token: Self.other), Self.record(3)])
        #expect(two.passed)
        #expect(two.summary == "2 pushes")
        #expect(two.records == [1, 3])
        #expect(two.details.isEmpty)

        let one = try item(yaml, [Self.record(1)])
        #expect(!one.passed)
        #expect(one.summary == "got 1, expected 2 pushes")
        #expect(one.details.first == "expected 2 pushes to c9f618…708aad; got 1.")
        #expect(one.details.last == "Nearest: none (no other request)")

        let three = try item(yaml, [Self.record(1), Self.record(2), Self.record(3)])
        #expect(!three.passed)
        #expect(three.details == [
            "expected 2 pushes to c9f618…708aad; got 3.",
            "matched: #1 at 12:00:01.000, #2 at 12:00:01.000, #3 at 12:00:01.000",
        ])
    }

    @Test("a range and count: 0 (never)")
    func rangesAndNever() throws {
        let range = "expect:\n  - match: { topic: com.example.app }\n    count: { min: 1, max: 2 }"
        #expect(try !item(range, []).passed)
        #expect(try item(range, [Self.record(1)]).passed)
        #expect(try item(range, [Self.record(1), Self.record(2)]).passed)
        let tooMany = try item(range, [Self.record(1), Self.record(2), Self.record(3)])
        #expect(!tooMany.passed)
        #expect(tooMany.details.first == "expected 1 to 2 pushes with topic com.example.app; got 3.")

        let atLeast = try item("expect:\n  - count: { min: 2 }", [Self.record(1)])
        #expect(atLeast.details.first == "expected at least 2 pushes any request; got 1.")

        let never = "expect:\n  - match: { payload: { aps.alert.title: Cancelled } }\n    count: 0"
        #expect(try item(never, [Self.record(1)]).passed)
        let broken = try item(never, [Self.record(1), Self.record(2, title: "Cancelled")])
        #expect(!broken.passed)
        #expect(broken.records == [2])
        #expect(broken.details == [
            #"expected no push with aps.alert.title "Cancelled"; got 1."#, "matched: #2 at 12:00:01.000",
        ])
    }

    @Test("the nearest miss is the record failing the fewest fields, each listed with both values")
    func nearestMiss() throws {
        let yaml = """
            expect:
              - match: { token: "\(Self.token)", pushType: alert, payload: { aps.alert.title: "Order ready" } }
            """
        let records = [
            Self.record(1, token: Self.other, pushType: "background", title: "Order Ready"),
            Self.record(2, at: 1.204, title: "Order Ready"),
            Self.record(3, token: Self.other, title: "Order Ready"),
        ]
        let item = try item(yaml, records)
        #expect(!item.passed)
        #expect(item.summary == "got 0, expected 1 push")
        #expect(item.details == [
            #"expected 1 push to c9f618…708aad with pushType alert, aps.alert.title "Order ready"; got 0."#,
            #"Nearest: #2 at 12:00:01.204 — aps.alert.title was "Order Ready" (expected "Order ready")"#,
        ])

        let operators = """
            expect:
              - match: { topic: { regex: "^com\\\\.shop" }, headers: { apns-priority: "5" } }
            """
        let miss = try self.item(operators, [Self.record(1)])
        #expect(
            miss.details.last
                == #"Nearest: #1 at 12:00:01.000 — header apns-priority was absent (expected "5"); "#
                + #"topic was com.example.app (expected {"regex":"^com\\.shop"})"#)
    }

    @Test("answered: a match answered otherwise fails and says how it was answered")
    func answered() throws {
        let byStatus = "expect:\n  - match: { topic: com.example.app }\n    answered: 200"
        #expect(try item(byStatus, [Self.record(1)]).passed)
        let rejected = try item(byStatus, [Self.record(1), Self.record(2, status: 410, reason: "Unregistered")])
        #expect(!rejected.passed)
        #expect(rejected.summary == "got 2, expected 1 push")
        #expect(rejected.details.last == "#2 at 12:00:01.000 was answered 410 Unregistered, expected 200")

        let byReason = "expect:\n  - match: { topic: com.example.app }\n    answered: Unregistered"
        #expect(try item(byReason, [Self.record(1, status: 410, reason: "Unregistered")]).passed)
        let accepted = try item(byReason, [Self.record(1)])
        #expect(!accepted.passed)
        #expect(accepted.summary == "1 of 1 push answered otherwise than Unregistered")
        #expect(accepted.details == [
            "expected 1 push with topic com.example.app, answered Unregistered; got 1.",
            "#1 at 12:00:01.000 was answered 200, expected Unregistered",
        ])
    }

    @Test("within: a match received after start + within does not count, and the message says so")
    func within() throws {
        let yaml = "expect:\n  - match: { topic: com.example.app }\n    within: 5s"
        #expect(try item(yaml, [Self.record(1, at: 5)]).passed, "exactly at the edge counts")
        let late = try item(yaml, [Self.record(1, at: 5.001)])
        #expect(!late.passed)
        #expect(late.records.isEmpty)
        #expect(late.details == [
            "expected 1 push with topic com.example.app, within 5s; got 0.",
            "Nearest: none (no other request)",
            "1 more arrived after the 5s window and do not count: #1 at 12:00:05.001",
        ])
    }

    static let trip = """
        expect:
          - name: trip
            sequence:
              - { payload: { aps.event: start } }
              - { payload: { aps.event: update } }
              - { payload: { aps.event: end } }
            within: 10s
        """

    @Test("a sequence passes in order and interleaved with anything else")
    func sequenceInOrder() throws {
        let inOrder = try item(Self.trip, [
            Self.record(1, event: "start"), Self.record(2, event: "update"), Self.record(3, event: "end"),
        ])
        #expect(inOrder.passed)
        #expect(inOrder.summary == "3 steps in order")
        let interleaved = try item(Self.trip, [
            Self.record(1), Self.record(2, event: "start"), Self.record(3, event: "update"), Self.record(4),
            Self.record(5, event: "update"), Self.record(6, event: "end"),
        ])
        #expect(interleaved.passed)
        #expect(interleaved.records == [2, 3, 6])
    }

    @Test("a sequence out of order or cut short says how far it got and which step is missing")
    func sequenceFailures() throws {
        let outOfOrder = try item(Self.trip, [
            Self.record(1, event: "update"), Self.record(2, event: "start"), Self.record(3, event: "end"),
        ])
        #expect(!outOfOrder.passed)
        #expect(outOfOrder.summary == "1 of 3 steps in order")
        #expect(outOfOrder.records == [2])
        #expect(outOfOrder.details == [
            "expected 3 requests in this order, interleaved with anything else, within 10s:",
            "  1. with aps.event \"start\" — #2 at 12:00:01.000",
            "  2. with aps.event \"update\" — missing",
            "  3. with aps.event \"end\" — missing",
            "step 2 came as #1 at 12:00:01.000, before step 1's #2 (out of order)",
            "Nearest for step 2: #3 at 12:00:01.000 — aps.event was \"end\" (expected \"update\")",
        ])

        let partial = try item(Self.trip, [Self.record(1, event: "start"), Self.record(2, event: "update")])
        #expect(partial.summary == "2 of 3 steps in order")
        #expect(partial.details.last == "  3. with aps.event \"end\" — missing")

        let late = try item(Self.trip, [
            Self.record(1, event: "start"), Self.record(2, event: "update"), Self.record(3, at: 12, event: "end"),
        ])
        #expect(!late.passed)
        #expect(late.details.last == "step 3 came as #3 at 12:00:12.000, after the 10s window")
    }

    @Test("unexpected: fail names every request no expectation's match or sequence step matches")
    func unexpected() throws {
        let yaml = Self.trip + "\n  - match: { token: \"\(Self.other)\" }\n    count: { min: 0 }\nunexpected: fail"
        let records = [
            Self.record(1, event: "start"), Self.record(2, token: Self.other), Self.record(3),
            Self.record(4, event: "end"),
        ]
        let report = try verify(yaml, records)
        #expect(report.items.map(\.kind) == [.expectation, .expectation, .unexpected])
        let unexpected = report.items[2]
        #expect(!unexpected.passed)
        #expect(unexpected.records == [3])
        #expect(unexpected.summary == "1 request no expectation matches")
        #expect(unexpected.details == [Self.record(3).summaryLine])

        let allowed = try verify(yaml.replacingOccurrences(of: "unexpected: fail", with: ""), records)
        #expect(allowed.items.count == 2)
        let clean = try verify(yaml, [Self.record(1, event: "start")])
        #expect(clean.items[2].passed)
        #expect(clean.items[2].summary == "every request was expected")
    }

    @Test("the report reads as the issue shows and survives its JSON")
    func reportText() throws {
        let report = try verify(
            "expect:\n  - name: order alert\n    match: { payload: { aps.alert.title: \"Order ready\" } }\n"
                + "  - name: nothing else\n    match: { topic: com.example.other }\n    count: 0",
            [Self.record(1, title: "Order Ready")])
        #expect(!report.passed)
        #expect(
            report.description == """
                ✗ order alert: got 0, expected 1 push
                    expected 1 push with aps.alert.title "Order ready"; got 0.
                    Nearest: #1 at 12:00:01.000 — aps.alert.title was "Order Ready" (expected "Order ready")
                ✓ nothing else: 0 pushes
                1 passed, 1 failed, 1 record checked
                """)
        let decoded = try #require(VerifyReport(json: try JSONParser.parse(Array(report.json.jsonText.utf8))))
        #expect(decoded.description == report.description)
        #expect(decoded.json == report.json)
        #expect(VerifyReport(json: .object([("items", .array([]))])) == nil)
        let badItem = #"{"items":[{"kind":"x"}],"records":1,"droppedRecords":0}"#
        #expect(VerifyReport(json: try JSONParser.parse(Array(badItem.utf8))) == nil)
    }

    @Test("rules still match through the shared matcher: token case, absent push type taken as alert")
    func sharedMatcher() throws {
        let match = try ScenarioLoader.parse(
            yaml: "expect:\n  - match: { token: \"\(Self.token.uppercased())\", pushType: alert }",
            sourcePath: nil, baseDirectory: "/"
        ).expectations[0].match
        var payload: JSONValue??
        let request = APNsRequest(method: "POST", path: "/3/device/\(Self.token)")
        #expect(ScriptedRules.matches(match, request, payload: &payload))
        #expect(match.mismatches(request.content, payload: &payload).isEmpty)
        let wrong = APNsRequest(
            method: "POST", path: "/3/device/\(Self.other)", headers: [APNsHeader("apns-push-type", "voip")])
        #expect(match.mismatches(wrong.content, payload: &payload) == [.token, .pushType])
    }
}
