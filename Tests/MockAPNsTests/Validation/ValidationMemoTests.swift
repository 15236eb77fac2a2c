import Foundation
import Testing
@testable import MockAPNs

/// One connection's memo carried from push to push: every decision must be the one a fresh validation makes.
@Suite("Validation memo: a connection's repeated values")
struct ValidationMemoTests {
    let fixture = ValidatorFixture()
    /// One provider token for the connection: a new one per push would be TooManyProviderTokenUpdates.
    let token: String

    init() {
        token = fixture.token()
    }

    func request(headers: [String: String] = [:], body: String = #"{"aps":{"alert":"hi"}}"#) -> APNsRequest {
        fixture.request(token: token, headers: headers, body: body)
    }

    /// Decides `requests` in order on one connection (one auth state, one memo), and each again on a fresh one.
    func decideOnOneConnection(_ requests: [APNsRequest], in fixture: ValidatorFixture? = nil)
        -> [(memoized: Verdict, fresh: Verdict)]
    {
        let fixture = fixture ?? self.fixture
        let validator = APNsValidator(world: fixture.world)
        var auth = ProviderAuthState()
        let memo = ValidationMemo()
        return requests.map { request in
            let memoized = validator.validate(
                request, connection: ValidatorFixture.tokenConnection, auth: &auth, memo: memo, now: fixture.now)
            return (memoized, fixture.validate(request))
        }
    }

    @Test("payloads: the same array, equal bytes in another array, and other bytes are each judged as they are")
    func payloads() {
        let object = request(body: #"{"aps":{"alert":"hi"}}"#)
        // Shares the array's storage, as the HTTP/2 session does.
        let sameArray = APNsRequest(
            method: object.method, path: object.path, authority: object.authority, headers: object.headers,
            body: object.body)
        let notJSON = request(body: #"{"aps":"#)
        let array = request(body: #"[1,2]"#)
        let equalBytes = request(body: #"{"aps":{"alert":"hi"}}"#)
        let decisions = decideOnOneConnection([object, sameArray, notJSON, notJSON, array, object, equalBytes])
        for (index, pair) in decisions.enumerated() {
            #expect(pair.memoized.outcome == pair.fresh.outcome, "request \(index)")
            #expect(pair.memoized.notes == pair.fresh.notes, "request \(index)")
        }
        #expect(decisions.map(\.memoized.notes.isEmpty) == [true, true, false, false, false, true, true])
        #expect(decisions[2].memoized.notes.contains { $0.hasPrefix("the payload is not JSON") })
        #expect(decisions[4].memoized.notes == ["the payload is JSON but not an object"])
    }

    @Test("topics and push types: a change of either is judged afresh")
    func topicsAndPushTypes() {
        let app = ValidatorFixture.bundleID
        let requests = [
            request(),
            request(headers: ["apns-topic": "\(app).voip"]),  // alert on a voip topic
            request(headers: ["apns-topic": "\(app).voip", "apns-push-type": "voip"]),
            request(headers: ["apns-topic": "\(app).voip", "apns-push-type": "vo1p"]),
            request(headers: ["apns-push-type": "background", "apns-priority": "5"]),
            request(),
        ]
        let decisions = decideOnOneConnection(requests)
        for (index, pair) in decisions.enumerated() {
            #expect(pair.memoized.outcome == pair.fresh.outcome, "request \(index)")
            #expect(pair.memoized.rule == pair.fresh.rule, "request \(index)")
        }
        #expect(decisions.map(\.memoized.rule) == [
            "accepted", "apns-topic.suffix", "accepted", "apns-push-type", "accepted", "accepted",
        ])
    }

    @Test("device tokens: hex, upper case, not hex, and back are each judged as they are", arguments: [true, false])
    func deviceTokens(acceptUppercase: Bool) {
        let strict = ValidatorFixture { $0.fidelity.acceptUppercaseDeviceTokens = acceptUppercase }
        let lower = String(repeating: "ab", count: 32)
        let tokens = [lower, lower, lower.uppercased(), lower.uppercased(), "zz" + lower.dropFirst(2), lower]
        let requests = tokens.map { fixture.request(token: token, device: String($0)) }
        let decisions = decideOnOneConnection(requests, in: strict)
        for (index, pair) in decisions.enumerated() {
            #expect(pair.memoized.outcome == pair.fresh.outcome, "request \(index)")
            #expect(pair.memoized.rule == pair.fresh.rule, "request \(index)")
        }
        #expect(decisions.map(\.memoized.rule) == [
            "accepted", "accepted", acceptUppercase ? "accepted" : "device-token.case",
            acceptUppercase ? "accepted" : "device-token.case", "device-token.format", "accepted",
        ])
    }
}
