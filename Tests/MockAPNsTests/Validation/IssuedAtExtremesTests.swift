import Foundation
import Testing

@testable import MockAPNs

/// A token's `iat` is any 64-bit number a client chooses: time arithmetic on it must not trap.
@Suite("Provider token iat extremes")
struct IssuedAtExtremesTests {
    let fixture = ValidatorFixture()

    func token(issuedAt: Int64) -> String {
        ProviderTokenSigner.makeToken(
            teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: issuedAt, key: ValidatorFixture.testKey,
            encoding: .raw)
    }

    @Test("iat of Int64.min is expired and Int64.max is in the future, without trapping")
    func extremes() {
        #expect(fixture.validate(fixture.request(token: token(issuedAt: .min))).reason == .expiredProviderToken)
        #expect(fixture.validate(fixture.request(token: token(issuedAt: .max))).reason == .invalidProviderToken)
    }

    @Test("a second token with an extreme iat on a connection is refused, without trapping")
    func refreshWithExtremes() {
        var auth = ProviderAuthState()
        #expect(fixture.validate(fixture.request(), auth: &auth).isAccepted)
        for issuedAt in [Int64.min, Int64.max] {
            var copy = auth
            let decision = fixture.validate(fixture.request(token: token(issuedAt: issuedAt)), auth: &copy)
            #expect(!decision.isAccepted)
        }
        #expect(APNsValidator.difference(.min, 1) == .min)
        #expect(APNsValidator.difference(.max, -1) == .max)
        #expect(APNsValidator.difference(5, 3) == 2)
    }
}
