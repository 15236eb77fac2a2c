import Foundation
import Testing

@testable import MockAPNs

/// Each provider check over journal records built by hand: what breaks it, what does not, and its edges.
@Suite("Provider checks")
struct ProviderCheckTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let phone = String(repeating: "ab", count: 32)
    static let tablet = String(repeating: "cd", count: 32)
    static let alert = #"{"aps":{"alert":"Order ready"}}"#

    /// A record received `at` seconds after `start` and answered 10 ms later (`answered` sets it exactly).
    static func record(
        _ sequence: UInt64, at seconds: Double, answered: Double? = nil, token: String = phone,
        status: Int = 200, reason: String? = nil, rule: String = "accepted", connection: UInt64 = 1,
        topic: String = "com.example.app", payload: String = alert, method: String = "POST",
        issuedAt: Int64? = nil
    ) -> JournalRecord {
        let receivedAt = start.addingTimeInterval(seconds)
        let auth = issuedAt.map {
            AuthSummary(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: $0, verified: true)
        }
        return JournalRecord(
            sequence: sequence, receivedAt: receivedAt,
            answeredAt: start.addingTimeInterval(answered ?? seconds + 0.01), connectionID: connection,
            remoteAddress: "127.0.0.1:5000",
            request: APNsRequest(
                method: method, path: "/3/device/\(token)", headers: [APNsHeader("apns-topic", topic)],
                body: Array(payload.utf8)),
            verdict: Verdict(
                outcome: reason.map { .rejected(APNsReason($0, status: status), timestamp: nil) } ?? .accepted,
                rule: rule, explanation: "because", auth: auth, pushType: "alert", topic: topic),
            response: APNsResponse(status: status, apnsID: "ID-\(sequence)"))
    }

    static func run(_ check: ProviderCheck, _ records: [JournalRecord], scenario: Scenario = Scenario(name: "t"))
        -> VerifyReport.Item
    {
        check.check(records, scenario: scenario)
    }

    // MARK: stops-after-unregistered

    @Test("a push to a token after it was answered 410 Unregistered fails, naming that record and the 410")
    func pushAfterUnregistered() {
        let records = [
            Self.record(1, at: 0),
            Self.record(2, at: 1, status: 410, reason: "Unregistered"),
            Self.record(3, at: 2),
            Self.record(4, at: 3),
        ]
        let item = Self.run(ProviderCheck(.stopsAfterUnregistered), records)
        #expect(!item.passed)
        #expect(item.name == "stops-after-unregistered" && item.kind == .check)
        #expect(item.records == [3, 4])
        #expect(item.summary == "2 records broke it (4 pushes, 1 token answered 410)")
        #expect(item.details.first?.hasPrefix(records[2].summaryLine) == true, "\(item.details)")
        #expect(item.details.first?.contains("answered 410 Unregistered in #2") == true, "\(item.details)")
    }

    @Test("ExpiredToken counts as 410, and a token in upper case is the same token")
    func expiredTokenAndCase() {
        let records = [
            Self.record(1, at: 0, status: 410, reason: "ExpiredToken"),
            Self.record(2, at: 1, token: Self.phone.uppercased()),
        ]
        #expect(Self.run(ProviderCheck(.stopsAfterUnregistered), records).records == [2])
    }

    @Test("a 410 and then pushes to another token pass; so does a push already in flight when the 410 was sent")
    func otherTokenAndInFlight() {
        let records = [
            Self.record(1, at: 0, answered: 0.5, status: 410, reason: "Unregistered"),
            Self.record(2, at: 0.2),
            Self.record(3, at: 1, token: Self.tablet),
        ]
        let item = Self.run(ProviderCheck(.stopsAfterUnregistered), records)
        #expect(item.passed, "\(item.details)")
        #expect(item.summary == "ok: 3 pushes, 1 token answered 410")
        #expect(item.details.isEmpty && item.records.isEmpty)
    }

    // MARK: no-retry-on-permanent-errors

    @Test("the same push resent after BadTopic fails; the same token with another payload or topic passes")
    func permanentRetry() {
        let records = [
            Self.record(1, at: 0, status: 400, reason: "BadTopic", topic: "com.example.wrong"),
            Self.record(2, at: 1, topic: "com.example.app"),
            Self.record(3, at: 2, topic: "com.example.wrong", payload: #"{"aps":{"alert":"other"}}"#),
            Self.record(4, at: 3, topic: "com.example.wrong"),
        ]
        let item = Self.run(ProviderCheck(.noRetryOnPermanentErrors), records)
        #expect(item.records == [4])
        #expect(item.details.first?.contains("the same push as #1, which was answered 400 BadTopic") == true)
        #expect(item.summary == "1 record broke it (1 push failed permanently)")
    }

    @Test("retries after errors that are not permanent pass: 429, 500, 503, auth errors, IdleTimeout, 410")
    func notPermanent() {
        let reasons = [
            (429, "TooManyRequests"), (500, "InternalServerError"), (503, "ServiceUnavailable"),
            (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"), (400, "IdleTimeout"), (410, "Unregistered"),
        ]
        for (status, reason) in reasons {
            let records = [Self.record(1, at: 0, status: status, reason: reason), Self.record(2, at: 5)]
            #expect(Self.run(ProviderCheck(.noRetryOnPermanentErrors), records).passed, "\(reason)")
        }
    }

    @Test("every permanent reason is a 4xx APNs knows, and none is a 410, an auth error or a back-off status")
    func permanentList() {
        for reason in ProviderCheck.permanentReasons {
            #expect(APNsReason.named(reason.name) == reason)
            #expect((400..<500).contains(reason.status) && reason.status != 410 && reason.status != 429)
            #expect(!reason.name.contains("ProviderToken") && !reason.name.contains("KeyIdInToken"))
        }
        #expect(ProviderCheck.permanentReasons.contains(.badDeviceToken))
        #expect(ProviderCheck.permanentReasons.contains(.payloadTooLarge))
    }

    // MARK: backs-off

    @Test("a retry exactly the minimum after a 503 passes; one sooner fails, naming the wait")
    func backOffMinimum() {
        let exact = [
            Self.record(1, at: 0, answered: 0.5, status: 503, reason: "ServiceUnavailable"),
            Self.record(2, at: 1.5),
        ]
        let passed = Self.run(ProviderCheck(.backsOff), exact)
        #expect(passed.passed, "\(passed.details)")
        #expect(passed.summary == "ok: 1 retry after 429/500/503, minimum 1s")
        let soon = [
            Self.record(1, at: 0, answered: 0.5, status: 429, reason: "TooManyRequests"),
            Self.record(2, at: 1.25),
        ]
        let failed = Self.run(ProviderCheck(.backsOff), soon)
        #expect(failed.records == [2])
        #expect(failed.details.first?.contains("a retry 750ms after #1 was answered 429 TooManyRequests") == true)
        #expect(failed.details.first?.contains("wait at least 1s") == true, "\(failed.details)")
    }

    @Test("the minimum is a parameter; only the first request after the answer is the retry; other tokens wait not")
    func backOffParameter() {
        let records = [
            Self.record(1, at: 0, answered: 0, status: 500, reason: "InternalServerError"),
            Self.record(2, at: 0.1, token: Self.tablet),
            Self.record(3, at: 1.5),
            Self.record(4, at: 1.6),
        ]
        #expect(Self.run(ProviderCheck(.backsOff), records).passed)
        let strict = Self.run(ProviderCheck(.backsOff, minimumBackoff: .seconds(2)), records)
        #expect(strict.records == [3])
        #expect(strict.summary == "1 record broke it (1 retry after 429/500/503, minimum 2s)")
    }

    // MARK: reuses-connections

    @Test("5 connections with at most 4 fail on the first request of the fifth; 4 pass")
    func connections() {
        let five =
            (1...5).map { Self.record(UInt64($0), at: Double($0), connection: UInt64($0)) }
            + [Self.record(6, at: 6, connection: 5)]
        let item = Self.run(ProviderCheck(.reusesConnections), five)
        #expect(item.records == [5])
        let detail = item.details.first ?? ""
        #expect(detail.contains("connection 5, which made 5 connections carrying"), "\(item.details)")
        #expect(item.summary == "1 record broke it (6 requests on 5 connections, at most 4)")
        let four = Array(five.prefix(4))
        let fourSummary = Self.run(ProviderCheck(.reusesConnections), four).summary
        #expect(fourSummary == "ok: 4 requests on 4 connections, at most 4")
        #expect(Self.run(ProviderCheck(.reusesConnections, maxConnections: 1), four).records == [2, 3, 4])
    }

    // MARK: token-refresh

    @Test("a provider token exactly 60 minutes old passes; a second older fails; refresh answers fail")
    func tokenAge() {
        let issued = Int64(Self.start.timeIntervalSince1970)
        let records = [
            Self.record(1, at: 3600, issuedAt: issued),
            Self.record(2, at: 3601, issuedAt: issued),
            Self.record(3, at: 3602, status: 429, reason: "TooManyProviderTokenUpdates"),
            Self.record(4, at: 3603, status: 403, reason: "ExpiredProviderToken", issuedAt: issued),
            Self.record(5, at: 3604, issuedAt: issued + 3000),
        ]
        let item = Self.run(ProviderCheck(.tokenRefresh), records)
        #expect(item.records == [2, 3, 4])
        #expect(item.details[0].contains("issued 3601s before (iat \(issued)); refresh it within 1h"), "\(item)")
        #expect(item.details[1].contains("answered TooManyProviderTokenUpdates"))
        #expect(item.summary == "3 records broke it (3 requests with a provider token, max age 1h)")
        let shorter = Self.run(ProviderCheck(.tokenRefresh, maxTokenAge: .seconds(1200)), [records[4]])
        #expect(shorter.passed)
        #expect(Self.run(ProviderCheck(.tokenRefresh, maxTokenAge: .seconds(600)), [records[4]]).records == [5])
    }

    // MARK: no-unexpected-errors

    @Test("an unscripted 400 fails; a scripted 400, a 410 and an error an expectation names pass")
    func unexpectedErrors() {
        let records = [
            Self.record(1, at: 0, status: 400, reason: "BadDeviceToken", rule: "device-token.format"),
            Self.record(2, at: 1, status: 400, reason: "BadTopic", rule: "scripted:bad topic"),
            Self.record(3, at: 2, status: 410, reason: "Unregistered", rule: "device.unregistered"),
            Self.record(4, at: 3, token: Self.tablet, status: 413, reason: "PayloadTooLarge", rule: "payload.size"),
            Self.record(5, at: 4, status: 500, reason: "InternalServerError", rule: "scripted:down"),
        ]
        let item = Self.run(ProviderCheck(.noUnexpectedErrors), records)
        #expect(item.records == [1, 4])
        #expect(item.details[0].contains("no rule scripted it and no expectation names it (device-token.format"))
        #expect(item.summary == "2 records broke it (3 4xx answers other than 410 in 5 requests)")

        var scenario = Scenario(name: "named")
        scenario.expectations = [ScenarioExpectation(name: "big payload", match: RuleMatch(token: Self.tablet))]
        #expect(Self.run(ProviderCheck(.noUnexpectedErrors), records, scenario: scenario).records == [1])
        scenario.expectations = [
            ScenarioExpectation(name: "steps", sequence: [RuleMatch(topic: "x"), RuleMatch(token: Self.phone)])
        ]
        #expect(Self.run(ProviderCheck(.noUnexpectedErrors), records, scenario: scenario).records == [4])
    }

    @Test("no records: every check passes and says what it looked at")
    func empty() {
        for kind in ProviderCheck.Kind.allCases {
            let item = Self.run(ProviderCheck(kind), [])
            #expect(item.passed && item.summary.hasPrefix("ok: "), "\(kind): \(item.summary)")
        }
    }

    @Test("Scenario.verify reports the checks after the expectations, and the report fails with them")
    func inTheReport() {
        var scenario = Scenario(name: "r")
        scenario.checks = [ProviderCheck(.stopsAfterUnregistered), ProviderCheck(.backsOff)]
        let records = [Self.record(1, at: 0, status: 410, reason: "Unregistered"), Self.record(2, at: 1)]
        let report = scenario.verify(records, startedAt: Self.start)
        #expect(report.items.map(\.name) == ["stops-after-unregistered", "backs-off"])
        #expect(!report.passed && report.failures.map(\.name) == ["stops-after-unregistered"])
        #expect(report.description.contains("✗ check stops-after-unregistered: 1 record broke it"))
    }
}
