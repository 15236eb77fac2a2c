import Foundation
import Testing
@testable import MockAPNs

/// One test (at least) per rejection reason the APNs rules produce, plus the accepted cases around each edge.
@Suite("APNs validator")
struct APNsValidatorTests {
    let fixture = ValidatorFixture()

    private func expect(
        _ decision: Verdict, _ reason: APNsReason, rule: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(decision.reason == reason, "\(decision.rule): \(decision.explanation)", sourceLocation: sourceLocation)
        if let rule { #expect(decision.rule == rule, sourceLocation: sourceLocation) }
    }

    @Test("accepts a well-formed alert push with a valid provider token")
    func acceptsAlert() {
        let decision = fixture.validate(fixture.request())
        #expect(decision.isAccepted, "\(decision.explanation)")
        #expect(decision.auth?.verified == true)
        #expect(decision.auth?.teamID == "TESTTEAM01")
    }

    // MARK: Method and path

    @Test("rejects a GET with 405 MethodNotAllowed")
    func methodNotAllowed() {
        expect(fixture.validate(fixture.request(method: "GET")), .methodNotAllowed, rule: "method")
    }

    @Test("rejects an unknown path with 404 BadPath")
    func badPath() {
        expect(fixture.validate(fixture.request(path: "/3/devices/abc")), .badPath, rule: "path")
    }

    @Test("checks the method before the path by default, and the path first when configured")
    func methodVersusPath() {
        expect(fixture.validate(fixture.request(method: "PUT", path: "/nope")), .methodNotAllowed)
        var pathFirst = fixture
        pathFirst.world.fidelity.methodCheckedBeforePath = false
        expect(pathFirst.validate(pathFirst.request(method: "PUT", path: "/nope")), .badPath)
    }

    @Test("rejects /3/device/ without a token with 400 MissingDeviceToken")
    func missingDeviceToken() {
        expect(fixture.validate(fixture.request(path: "/3/device/")), .missingDeviceToken)
    }

    // MARK: Headers

    @Test("rejects a header sent twice with 400 DuplicateHeaders")
    func duplicateHeaders() {
        let request = fixture.request(extraHeaders: [APNsHeader("apns-topic", "com.example.app")])
        expect(fixture.validate(request), .duplicateHeaders)
    }

    @Test("rejects an apns-id that is not a UUID with 400 BadMessageId")
    func badMessageId() {
        expect(fixture.validate(fixture.request(headers: ["apns-id": "order-42"])), .badMessageId)
        #expect(fixture.validate(fixture.request(headers: ["apns-id": "123e4567-e89b-12d3-a456-42661417400A"])).isAccepted)
    }

    @Test("rejects apns-priority 7 with 400 BadPriority", arguments: ["7", "high", "", "10.0"])
    func badPriority(value: String) {
        expect(fixture.validate(fixture.request(headers: ["apns-priority": value])), .badPriority)
    }

    @Test("accepts a background push with priority 10 with a note, as APNs does; rejects it under the setting")
    func backgroundPriority() {
        let body = #"{"aps":{"content-available":1}}"#
        let ten = fixture.request(headers: ["apns-push-type": "background", "apns-priority": "10"], body: body)
        let accepted = fixture.validate(ten)
        #expect(accepted.isAccepted && accepted.notes == [APNsValidator.backgroundPriorityTenNote])
        let five = fixture.validate(
            fixture.request(headers: ["apns-push-type": "background", "apns-priority": "5"], body: body))
        #expect(five.isAccepted && five.notes.isEmpty)
        var rejecting = fixture
        rejecting.world.fidelity.backgroundPriorityTen = .badPriority
        expect(rejecting.validate(ten), .badPriority, rule: "apns-priority.background")
    }

    @Test("rejects a non-numeric apns-expiration with 400 BadExpirationDate", arguments: ["tomorrow", "-5", "1.5", ""])
    func badExpirationDate(value: String) {
        expect(fixture.validate(fixture.request(headers: ["apns-expiration": value])), .badExpirationDate)
    }

    @Test("accepts apns-expiration 0 and a time in seconds")
    func goodExpiration() {
        #expect(fixture.validate(fixture.request(headers: ["apns-expiration": "0"])).isAccepted)
        #expect(fixture.validate(fixture.request(headers: ["apns-expiration": "1800003600"])).isAccepted)
    }

    @Test("rejects an unknown apns-push-type with 400 InvalidPushType")
    func invalidPushType() {
        expect(fixture.validate(fixture.request(headers: ["apns-push-type": "banner"])), .invalidPushType)
    }

    @Test("takes a missing apns-push-type as alert by default, and rejects it when configured")
    func missingPushType() {
        let decision = fixture.validate(fixture.request(removing: ["apns-push-type"]))
        #expect(decision.isAccepted)
        #expect(decision.pushType == "alert")
        var strict = fixture
        strict.world.fidelity.missingPushTypeIsAlert = false
        expect(strict.validate(strict.request(removing: ["apns-push-type"])), .invalidPushType)
    }

    @Test("rejects an apns-collapse-id over 64 bytes with 400 BadCollapseId")
    func badCollapseId() {
        expect(
            fixture.validate(fixture.request(headers: ["apns-collapse-id": String(repeating: "c", count: 65)])),
            .badCollapseId)
        #expect(fixture.validate(fixture.request(headers: ["apns-collapse-id": String(repeating: "c", count: 64)])).isAccepted)
    }

    // MARK: Topic

    @Test("rejects a token push without apns-topic with 400 MissingTopic")
    func missingTopic() {
        expect(fixture.validate(fixture.request(removing: ["apns-topic"])), .missingTopic)
    }

    @Test("knows the topic suffix of every push type", arguments: APNsPushType.all.filter { $0 != .mdm })
    func topicSuffixes(pushType: APNsPushType) {
        let priority = pushType == .background ? "5" : "10"
        let good = fixture.request(
            headers: ["apns-push-type": pushType.name, "apns-topic": "com.example.app\(pushType.topicSuffix)", "apns-priority": priority])
        #expect(fixture.validate(good).isAccepted, "\(fixture.validate(good).explanation)")
        if !pushType.topicSuffix.isEmpty {
            let bad = fixture.request(
                headers: ["apns-push-type": pushType.name, "apns-topic": "com.example.app", "apns-priority": priority])
            expect(fixture.validate(bad), .deviceTokenNotForTopic, rule: "apns-topic.suffix")
        }
    }

    @Test("answers a suffix mismatch with the configured reason")
    func configurableSuffixMismatch() {
        var configured = fixture
        configured.world.fidelity.topicSuffixMismatch = .topicDisallowed
        let request = configured.request(headers: ["apns-push-type": "voip", "apns-topic": "com.example.app"])
        expect(configured.validate(request), .topicDisallowed)
    }

    @Test("rejects an alert sent to a VoIP topic")
    func alertToVoIPTopic() {
        expect(fixture.validate(fixture.request(headers: ["apns-topic": "com.example.app.voip"])), .deviceTokenNotForTopic)
    }

    @Test("rejects a liveactivity push over a certificate connection with 400 TopicDisallowed")
    func liveActivityNeedsToken() {
        let request = fixture.request(
            headers: ["apns-push-type": "liveactivity", "apns-topic": "com.example.app.push-type.liveactivity"])
        expect(
            fixture.validate(request, connection: ValidatorFixture.certificateConnection("client-sandbox.pem")),
            .topicDisallowed, rule: "apns-topic.certificate-push-type")
    }

    @Test("rejects a topic outside a topic-specific key's list with 400 TopicDisallowed")
    func topicSpecificKey() {
        let limited = ValidatorFixture { world in world.keys["TESTKEY001"]?.topics = ["com.example.other"] }
        expect(limited.validate(limited.request()), .topicDisallowed, rule: "apns-topic.key")

        // On one connection: the accepted token is replayed for the next pushes, and its key's limit with it.
        let token = limited.token()
        var auth = ProviderAuthState()
        let allowed = limited.request(token: token, headers: ["apns-topic": "com.example.other"])
        #expect(limited.validate(allowed, auth: &auth).isAccepted)
        expect(limited.validate(limited.request(token: token), auth: &auth), .topicDisallowed, rule: "apns-topic.key")
        #expect(limited.validate(allowed, auth: &auth).isAccepted)
    }

    @Test("rejects a topic of another team's app with 400 TopicDisallowed")
    func otherTeamsApp() {
        let world = ValidatorFixture { world in
            world.apps = ["com.example.app": AppRecord(bundleID: "com.example.app", teamID: "OTHERTEAM1")]
        }
        expect(world.validate(world.request()), .topicDisallowed, rule: "apns-topic.team")
    }

    // MARK: Certificates

    @Test("accepts a single-topic certificate without apns-topic, and ignores authorization")
    func singleTopicCertificate() {
        let request = fixture.request(removing: ["apns-topic", "authorization"])
        let decision = fixture.validate(request, connection: ValidatorFixture.certificateConnection("client-sandbox.pem"))
        #expect(decision.isAccepted, "\(decision.explanation)")
        #expect(decision.auth?.kind == "certificate")
    }

    @Test("requires apns-topic with a multi-topic certificate (400 MissingTopic)")
    func multiTopicCertificateNeedsTopic() {
        let request = fixture.request(removing: ["apns-topic", "authorization"])
        expect(fixture.validate(request, connection: ValidatorFixture.certificateConnection("client-multitopic.pem")), .missingTopic)
    }

    @Test("rejects a topic the certificate does not list with 400 BadTopic")
    func badTopic() {
        let request = fixture.request(headers: ["apns-topic": "com.example.other"], removing: ["authorization"])
        expect(fixture.validate(request, connection: ValidatorFixture.certificateConnection("client-multitopic.pem")), .badTopic)
    }

    @Test("accepts a VoIP push to a topic the multi-topic certificate lists")
    func certificateVoIP() {
        let request = fixture.request(headers: ["apns-topic": "com.example.app.voip", "apns-push-type": "voip"])
        #expect(fixture.validate(request, connection: ValidatorFixture.certificateConnection("client-multitopic.pem")).isAccepted)
    }

    @Test("answers 403 BadCertificateEnvironment per request when configured to reject")
    func badCertificateEnvironment() {
        var production = fixture
        production.world.environment = .production
        production.world.fidelity.certificateEnvironmentMismatch = .reject
        expect(
            production.validate(production.request(), connection: ValidatorFixture.certificateConnection("client-sandbox.pem")),
            .badCertificateEnvironment)
    }

    // MARK: Device tokens

    @Test("rejects a malformed device token with 400 BadDeviceToken", arguments: ["xyz", "abc", "0123456789abcdeg"])
    func badDeviceToken(token: String) {
        expect(fixture.validate(fixture.request(device: token)), .badDeviceToken)
    }

    @Test("accepts device tokens of any even length (64, 108, 160 hex digits)", arguments: [64, 108, 160])
    func tokenLengths(length: Int) {
        let token = String(String(repeating: "a1", count: length).prefix(length))
        #expect(fixture.validate(fixture.request(device: token)).isAccepted)
    }

    @Test("accepts upper-case tokens by default and rejects them when configured")
    func upperCaseTokens() {
        let token = ValidatorFixture.device.uppercased()
        #expect(fixture.validate(fixture.request(device: token)).isAccepted)
        var strict = fixture
        strict.world.fidelity.acceptUppercaseDeviceTokens = false
        expect(strict.validate(strict.request(device: token)), .badDeviceToken)
    }

    @Test("rejects an unknown token in strict mode with 400 BadDeviceToken")
    func unknownDeviceStrict() {
        let strict = ValidatorFixture { $0.devicePolicy = .strict }
        expect(strict.validate(strict.request()), .badDeviceToken, rule: "device.unknown")
    }

    @Test("rejects a token of the other environment with 400 BadDeviceToken")
    func otherEnvironmentToken() {
        let world = ValidatorFixture { $0.devices = [ValidatorFixture.device: Device(token: ValidatorFixture.device, environment: .production)] }
        expect(world.validate(world.request()), .badDeviceToken, rule: "device.environment")
    }

    @Test("rejects a token of another app with 400 DeviceTokenNotForTopic")
    func deviceTokenNotForTopic() {
        let world = ValidatorFixture { $0.devices = [ValidatorFixture.device: Device(token: ValidatorFixture.device, bundleID: "com.example.other")] }
        expect(world.validate(world.request()), .deviceTokenNotForTopic, rule: "device.app")
    }

    @Test("answers an unregistered token 410 Unregistered with its timestamp")
    func unregistered() {
        let since = fixture.now.addingTimeInterval(-3600)
        let world = ValidatorFixture { $0.devices = [ValidatorFixture.device: Device(token: ValidatorFixture.device, unregisteredAt: since)] }
        let decision = world.validate(world.request())
        #expect(decision.outcome == .rejected(.unregistered, timestamp: since))
    }

    @Test("accepts a token until its unregistration time comes")
    func unregisteredLater() {
        let later = fixture.now.addingTimeInterval(60)
        let world = ValidatorFixture { $0.devices = [ValidatorFixture.device: Device(token: ValidatorFixture.device, unregisteredAt: later)] }
        var auth = ProviderAuthState()
        let request = world.request()
        #expect(world.validate(request, auth: &auth).isAccepted)
        expect(world.validate(request, auth: &auth, at: later), .unregistered)
    }

    @Test("answers an expired token 410 ExpiredToken")
    func expiredToken() {
        let since = fixture.now.addingTimeInterval(-10)
        let world = ValidatorFixture { $0.devices = [ValidatorFixture.device: Device(token: ValidatorFixture.device, expiredAt: since)] }
        #expect(world.validate(world.request()).outcome == .rejected(.expiredToken, timestamp: since))
    }

    // MARK: Payload

    @Test("rejects an empty payload with 400 PayloadEmpty")
    func payloadEmpty() {
        expect(fixture.validate(fixture.request(body: "")), .payloadEmpty)
    }

    @Test("rejects 4097 bytes with 413 PayloadTooLarge and accepts 4096")
    func payloadTooLarge() {
        expect(fixture.validate(fixture.request(body: Self.payload(size: 4097))), .payloadTooLarge)
        #expect(fixture.validate(fixture.request(body: Self.payload(size: 4096))).isAccepted)
    }

    @Test("allows 5120 bytes for voip and rejects 5121")
    func voipPayloadLimit() {
        let headers: [String: String] = ["apns-push-type": "voip", "apns-topic": "com.example.app.voip"]
        #expect(fixture.validate(fixture.request(headers: headers, body: Self.payload(size: 5120))).isAccepted)
        expect(fixture.validate(fixture.request(headers: headers, body: Self.payload(size: 5121))), .payloadTooLarge)
    }

    @Test("accepts a payload that is not JSON by default, noting it, and rejects it when configured")
    func invalidJSON() {
        let decision = fixture.validate(fixture.request(body: "{not json"))
        #expect(decision.isAccepted)
        #expect(decision.notes.contains { $0.contains("not JSON") })
        var strict = fixture
        strict.world.fidelity.invalidJSONPayload = .payloadEmpty
        expect(strict.validate(strict.request(body: "[1,2]")), .payloadEmpty, rule: "payload.json")
    }

    static func payload(size: Int) -> String {
        let prefix = #"{"aps":{"alert":""#
        let suffix = #""}}"#
        return prefix + String(repeating: "x", count: size - prefix.count - suffix.count) + suffix
    }
}
