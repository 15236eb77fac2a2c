import Foundation
import Testing

@testable import MockAPNs

/// The provider checks' edges found in review: a retry that fixes the header APNs refused is a new push,
/// `TooManyProviderTokenUpdates` is not a back-off case, scripted token errors are not the provider's, and times
/// decades apart (a journal file read back) never trap.
@Suite("Provider checks: review edges")
struct ProviderCheckReviewTests {
    typealias Fixture = ProviderCheckTests

    /// A record like `Fixture.record`, with extra headers.
    static func record(
        _ sequence: UInt64, at seconds: Double, headers: [(String, String)], status: Int = 200, reason: String? = nil
    ) -> JournalRecord {
        let receivedAt = Fixture.start.addingTimeInterval(seconds)
        return JournalRecord(
            sequence: sequence, receivedAt: receivedAt, answeredAt: receivedAt.addingTimeInterval(0.01),
            connectionID: 1, remoteAddress: "127.0.0.1:5000",
            request: APNsRequest(
                method: "POST", path: "/3/device/\(Fixture.phone)",
                headers: [APNsHeader("apns-topic", "com.example.app")] + headers.map { APNsHeader($0.0, $0.1) },
                body: Array(Fixture.alert.utf8)),
            verdict: Verdict(
                outcome: reason.map { .rejected(APNsReason($0, status: status), timestamp: nil) } ?? .accepted,
                rule: "accepted", explanation: "because", pushType: "alert", topic: "com.example.app"),
            response: APNsResponse(status: status, apnsID: "ID-\(sequence)"))
    }

    @Test("a retry that fixes the priority APNs refused passes; the same priority again fails")
    func fixedPriority() {
        let check = ProviderCheck(.noRetryOnPermanentErrors)
        let fixed = [
            Self.record(1, at: 0, headers: [("apns-priority", "7")], status: 400, reason: "BadPriority"),
            Self.record(2, at: 1, headers: [("apns-priority", "10")]),
        ]
        #expect(Fixture.run(check, fixed).passed, "\(Fixture.run(check, fixed).details)")
        let again = [
            Self.record(1, at: 0, headers: [("apns-priority", "7")], status: 400, reason: "BadPriority"),
            Self.record(2, at: 1, headers: [("apns-priority", "7")], status: 400, reason: "BadPriority"),
        ]
        #expect(Fixture.run(check, again).records == [2])
    }

    @Test("after BadMessageId a new apns-id is a new push; after BadDeviceToken a new apns-id is still a retry")
    func apnsID() {
        let check = ProviderCheck(.noRetryOnPermanentErrors)
        let badID = [
            Self.record(1, at: 0, headers: [("apns-id", "bad")], status: 400, reason: "BadMessageId"),
            Self.record(2, at: 1, headers: [("apns-id", "8E9F4C4D-0000-4000-8000-000000000001")]),
        ]
        #expect(Fixture.run(check, badID).passed)
        let badToken = [
            Self.record(1, at: 0, headers: [("apns-id", "8E9F4C4D-0000-4000-8000-000000000001")], status: 400,
                reason: "BadDeviceToken"),
            Self.record(2, at: 1, headers: [("apns-id", "8E9F4C4D-0000-4000-8000-000000000002")], status: 400,
                reason: "BadDeviceToken"),
        ]
        #expect(Fixture.run(check, badToken).records == [2])
    }

    @Test("TooManyProviderTokenUpdates is not a back-off case; TooManyRequests is")
    func tooManyProviderTokenUpdates() {
        let check = ProviderCheck(.backsOff)
        let tokenUpdates = [
            Fixture.record(1, at: 0, status: 429, reason: "TooManyProviderTokenUpdates"),
            Fixture.record(2, at: 0.05),
        ]
        #expect(Fixture.run(check, tokenUpdates).passed)
        let tooMany = [Fixture.record(1, at: 0, status: 429, reason: "TooManyRequests"), Fixture.record(2, at: 0.05)]
        #expect(Fixture.run(check, tooMany).records == [2])
    }

    @Test("token-refresh leaves out scripted token errors and words its advice by reason")
    func scriptedTokenErrors() {
        let check = ProviderCheck(.tokenRefresh)
        let scripted = [
            Fixture.record(1, at: 0, status: 403, reason: "ExpiredProviderToken", rule: "scripted:expire"),
            Fixture.record(2, at: 1),
        ]
        #expect(Fixture.run(check, scripted).passed)
        let real = [Fixture.record(1, at: 0, status: 429, reason: "TooManyProviderTokenUpdates")]
        let item = Fixture.run(check, real)
        #expect(item.records == [1])
        #expect(item.details.first?.contains("at most once every 20 minutes") == true, "\(item.details)")
    }

    @Test("an iat of Int64.min or Int64.max is reported, not a crash")
    func extremeIssuedAt() {
        let check = ProviderCheck(.tokenRefresh)
        let records = [
            Fixture.record(1, at: 0, issuedAt: Int64.min), Fixture.record(2, at: 1, issuedAt: Int64.max),
        ]
        let item = Fixture.run(check, records)
        #expect(item.records == [1], "\(item.details)")
        #expect(item.details.first?.contains("s before (iat -9223372036854775808)") == true, "\(item.details)")
    }
}
