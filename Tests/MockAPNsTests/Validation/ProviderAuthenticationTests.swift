import Foundation
import Testing
@testable import MockAPNs

/// Provider-token rules: presence, form, signature, key, expiry, connection binding and the 20-minute rule.
@Suite("Provider authentication")
struct ProviderAuthenticationTests {
    let fixture = ValidatorFixture()

    @Test("rejects a token connection without authorization with 403 MissingProviderToken")
    func missingProviderToken() {
        let decision = fixture.validate(fixture.request(removing: ["authorization"]))
        #expect(decision.reason == .missingProviderToken)
    }

    @Test("accepts raw R||S and DER signatures alike", arguments: [ES256SignatureEncoding.raw, .der])
    func signatureEncodings(encoding: ES256SignatureEncoding) {
        let decision = fixture.validate(fixture.request(token: fixture.token(encoding: encoding)))
        #expect(decision.isAccepted, "\(decision.explanation)")
        #expect(decision.auth?.verified == true)
    }

    @Test(
        "rejects malformed tokens with 403 InvalidProviderToken",
        arguments: ["not-a-jwt", "a.b", "!!!.???.***", "eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2ln", ""])
    func malformedToken(token: String) {
        let decision = fixture.validate(fixture.request(token: token))
        #expect(decision.reason == .invalidProviderToken, "\(decision.explanation)")
    }

    @Test("rejects a tampered token with 403 InvalidProviderToken")
    func tamperedToken() {
        var parts = fixture.token().split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"iss":"TESTTEAM01","iat":1800000099}"#.utf8))
        let decision = fixture.validate(fixture.request(token: parts.joined(separator: ".")))
        #expect(decision.reason == .invalidProviderToken)
        #expect(decision.rule == "provider-token.signature")
    }

    @Test("rejects a token signed by another key than its kid names")
    func wrongSigner() {
        let decision = fixture.validate(fixture.request(token: fixture.token(key: ValidatorFixture.otherKey)))
        #expect(decision.reason == .invalidProviderToken)
    }

    @Test("rejects a token whose iss is not the key's team")
    func wrongTeam() {
        let decision = fixture.validate(fixture.request(token: fixture.token(team: "OTHERTEAM1")))
        #expect(decision.reason == .invalidProviderToken)
        #expect(decision.rule == "provider-token.team")
    }

    @Test("rejects an alg other than ES256")
    func wrongAlgorithm() {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","kid":"TESTKEY001"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"TESTTEAM01","iat":1800000000}"#.utf8))
        let decision = fixture.validate(fixture.request(token: "\(header).\(claims).c2lnbmF0dXJl"))
        #expect(decision.reason == .invalidProviderToken)
        #expect(decision.rule == "provider-token.alg")
    }

    @Test("accepts an unknown key unverified in lenient mode and rejects it in strict mode")
    func unknownKey() {
        let stranger = ES256PrivateKey.generate()
        let token = fixture.token(team: "STRANGER01", keyID: "STRANGER01", key: stranger)
        let lenient = fixture.validate(fixture.request(token: token))
        #expect(lenient.isAccepted)
        #expect(lenient.auth?.verified == false)
        let strict = ValidatorFixture { $0.keyPolicy = .strict }
        #expect(strict.validate(strict.request(token: token)).reason == .invalidProviderToken)
    }

    @Test("rejects a token older than an hour with 403 ExpiredProviderToken")
    func expiredProviderToken() {
        #expect(fixture.validate(fixture.request(token: fixture.token(age: 3601))).reason == .expiredProviderToken)
        #expect(fixture.validate(fixture.request(token: fixture.token(age: 3599))).isAccepted)
    }

    @Test("expires a token on a connection when the clock moves past an hour")
    func expiresWithTime() {
        var auth = ProviderAuthState()
        let request = fixture.request()
        #expect(fixture.validate(request, auth: &auth).isAccepted)
        let later = fixture.now.addingTimeInterval(3601)
        #expect(fixture.validate(request, auth: &auth, at: later).reason == .expiredProviderToken)
    }

    @Test("accepts iat as a numeric string and notes it; rejects it when configured")
    func stringIssuedAt() {
        let token = fixture.token(issuedAtAsString: true)
        let decision = fixture.validate(fixture.request(token: token))
        #expect(decision.isAccepted)
        #expect(decision.notes.contains("provider token iat sent as a string"))
        var strict = fixture
        strict.world.fidelity.acceptStringIssuedAt = false
        #expect(strict.validate(strict.request(token: token)).reason == .invalidProviderToken)
    }

    @Test("accepts an iat with a fraction of a second, truncated, and notes it")
    func fractionalIssuedAt() {
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"TESTKEY001"}"#.utf8))
        let claims = Base64URL.encode(Array("{\"iss\":\"TESTTEAM01\",\"iat\":\(fixture.nowSeconds).75}".utf8))
        let input = Array("\(header).\(claims)".utf8)
        let token = "\(header).\(claims).\(Base64URL.encode(ValidatorFixture.testKey.sign(input)))"
        let decision = fixture.validate(fixture.request(token: token))
        #expect(decision.isAccepted, "\(decision.explanation)")
        #expect(decision.auth?.issuedAt == fixture.nowSeconds)
        #expect(decision.notes.contains("provider token iat sent with a fraction of a second: truncated"))
    }

    @Test("rejects an iat more than an hour in the future")
    func futureIssuedAt() {
        #expect(fixture.validate(fixture.request(token: fixture.token(age: -3700))).reason == .invalidProviderToken)
    }

    @Test("rejects a key limited to production on a sandbox server with 403 BadEnvironmentKeyInToken")
    func badEnvironmentKey() {
        let world = ValidatorFixture { $0.keys["TESTKEY001"]?.environment = .production }
        let decision = world.validate(world.request())
        #expect(decision.reason?.name == "BadEnvironmentKeyInToken")
        #expect(decision.reason?.status == 403)
        var apple = world
        apple.world.fidelity.badEnvironmentKeyReasonName = "BadEnvironmentKeyIdInToken"
        #expect(apple.validate(apple.request()).reason?.name == "BadEnvironmentKeyIdInToken")
    }

    @Test("rejects a second team on one connection with 403 InvalidProviderToken")
    func secondTeam() {
        var auth = ProviderAuthState()
        #expect(fixture.validate(fixture.request(), auth: &auth).isAccepted)
        let other = fixture.token(team: "OTHERTEAM1", keyID: "OTHERKEY01", key: ValidatorFixture.otherKey)
        let decision = fixture.validate(fixture.request(token: other), auth: &auth)
        #expect(decision.reason == .invalidProviderToken)
        #expect(decision.rule == "provider-token.connection-team")
    }

    @Test("rejects another key of the same team on one connection with 403 UnrelatedKeyIdInToken")
    func unrelatedKey() {
        let second = ES256PrivateKey.generate()
        let world = ValidatorFixture { world in
            world.keys["SECONDKEY1"] = SigningKey(teamID: "TESTTEAM01", keyID: "SECONDKEY1", publicKey: second.publicKey)
        }
        var auth = ProviderAuthState()
        #expect(world.validate(world.request(), auth: &auth).isAccepted)
        let token = world.token(age: -1300, keyID: "SECONDKEY1", key: second)
        #expect(world.validate(world.request(token: token), auth: &auth).reason == .unrelatedKeyIdInToken)
    }

    @Test("rejects a new token within 20 minutes with 429 TooManyProviderTokenUpdates, allows it after")
    func tooManyProviderTokenUpdates() {
        var auth = ProviderAuthState()
        let first = fixture.token()
        #expect(fixture.validate(fixture.request(token: first), auth: &auth).isAccepted)

        let tenMinutes = fixture.now.addingTimeInterval(600)
        var later = fixture
        later.now = tenMinutes
        let refreshed = later.token()
        let decision = later.validate(later.request(token: refreshed), auth: &auth)
        #expect(decision.reason == .tooManyProviderTokenUpdates)
        // The old token keeps working.
        #expect(later.validate(later.request(token: first), auth: &auth).isAccepted)

        var muchLater = fixture
        muchLater.now = fixture.now.addingTimeInterval(1300)
        #expect(muchLater.validate(muchLater.request(token: muchLater.token()), auth: &auth).isAccepted)
    }

    @Test("catches re-signing with the same iat (a new token per topic) as a token update")
    func reSigning() {
        var auth = ProviderAuthState()
        #expect(fixture.validate(fixture.request(token: fixture.token()), auth: &auth).isAccepted)
        // ES256 signatures are randomised: the same claims signed again make a different token string.
        let again = fixture.token()
        #expect(fixture.validate(fixture.request(token: again), auth: &auth).reason == .tooManyProviderTokenUpdates)
    }

    @Test("repeats the notes and the verdict of the connection's token on every later push")
    func repeatedTokenKeepsNotes() {
        var auth = ProviderAuthState()
        let stranger = ES256PrivateKey.generate()
        let token = fixture.token(team: "STRANGER01", keyID: "STRANGER01", key: stranger, issuedAtAsString: true)
        let request = fixture.request(token: token)
        let first = fixture.validate(request, auth: &auth)
        let second = fixture.validate(request, auth: &auth, at: fixture.now.addingTimeInterval(60))
        for decision in [first, second] {
            #expect(decision.isAccepted, "\(decision.explanation)")
            #expect(decision.auth?.verified == false)
            #expect(decision.auth?.teamID == "STRANGER01")
            #expect(decision.notes.contains("provider token iat sent as a string"))
            #expect(decision.notes.contains("key STRANGER01 is unknown: signature not verified (lenient mode)"))
        }
        #expect(first.notes == second.notes)
    }

    @Test("verifies a token string once per connection, not per request")
    func verdictIsCached() {
        var auth = ProviderAuthState()
        let request = fixture.request()
        #expect(fixture.validate(request, auth: &auth).isAccepted)
        // Swap the key for one that would fail: a cached verdict keeps the token valid on this connection.
        var changed = fixture
        changed.world.keys["TESTKEY001"]?.publicKey = ValidatorFixture.otherKey.publicKey
        #expect(changed.validate(request, auth: &auth).isAccepted)
        auth.forgetVerdicts()
        #expect(changed.validate(request, auth: &auth).reason == .invalidProviderToken)
    }
}
