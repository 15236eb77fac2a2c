import Testing

@testable import MockAPNs

@Suite("ProviderToken")
struct ProviderTokenTests {
    /// A compact token made of the given JSON texts and signature, without signing anything.
    private static func token(
        header: String,
        claims: String,
        signature: [UInt8] = Array(repeating: 7, count: 64)
    )
        -> String
    {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "."
            + Base64URL.encode(signature)
    }

    /// The message of the error `parse` throws for `token`, or `nil` when it parses.
    private static func parseError(_ token: String) -> String? {
        do {
            _ = try ProviderToken.parse(token)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("parses the header, claims and signature of a well-formed signed token")
    func parsesGoodToken() throws {
        let key = ES256PrivateKey.generate()
        let raw = ProviderTokenSigner.makeToken(
            teamID: "TESTTEAM01",
            keyID: "TESTKEY001",
            issuedAt: 1_700_000_000,
            key: key
        )
        let token = try ProviderToken.parse(raw)
        #expect(token.raw == raw)
        #expect(token.algorithm == "ES256")
        #expect(token.keyID == "TESTKEY001")
        #expect(token.type == nil)
        #expect(token.issuer == "TESTTEAM01")
        #expect(token.issuedAt == 1_700_000_000)
        #expect(!token.issuedAtWasString)
        #expect(!token.hasKeyIDClaim)
        #expect(token.signature.count == 64)
        let parts = raw.split(separator: ".")
        #expect(token.signingInput == Array("\(parts[0]).\(parts[1])".utf8))
        #expect(key.publicKey.verify(signature: token.signature, message: token.signingInput) == .validRaw)
    }

    @Test("verifies a DER-signed token as validDER, as Pushy sends it")
    func derToken() throws {
        let key = ES256PrivateKey.generate()
        let raw = ProviderTokenSigner.makeToken(
            teamID: "TESTTEAM01",
            keyID: "TESTKEY001",
            issuedAt: 1_700_000_000,
            key: key,
            encoding: .der
        )
        let token = try ProviderToken.parse(raw)
        #expect(token.signature.first == 0x30)
        #expect(key.publicKey.verify(signature: token.signature, message: token.signingInput) == .validDER)
    }

    @Test("reads iat sent as a numeric string and flags it, as kalyke and APNSwift send it")
    func issuedAtAsString() throws {
        let key = ES256PrivateKey.generate()
        let raw = ProviderTokenSigner.makeToken(
            teamID: "TESTTEAM01",
            keyID: "TESTKEY001",
            issuedAt: 1_700_000_123,
            key: key,
            issuedAtAsString: true
        )
        let token = try ProviderToken.parse(raw)
        #expect(token.issuedAt == 1_700_000_123)
        #expect(token.issuedAtWasString)
        #expect(key.publicKey.verify(signature: token.signature, message: token.signingInput) == .validRaw)
    }

    @Test("leaves iat nil but flagged when it is a string that is not a number")
    func nonNumericIssuedAtString() throws {
        let token = try ProviderToken.parse(
            Self.token(header: #"{"alg":"ES256","kid":"K"}"#, claims: #"{"iss":"T","iat":"yesterday"}"#)
        )
        #expect(token.issuedAt == nil)
        #expect(token.issuedAtWasString)
    }

    @Test("accepts APNSwift-style JSON with newlines, spaces and a kid claim")
    func apnsSwiftStyle() throws {
        let header = "{\n  \"alg\" : \"ES256\",\n  \"kid\" : \"TESTKEY001\"\n}"
        let claims = "{\n  \"iss\" : \"TESTTEAM01\",\n  \"iat\" : \"1700000000\",\n  \"kid\" : \"TESTKEY001\"\n}"
        let token = try ProviderToken.parse(Self.token(header: header, claims: claims))
        #expect(token.algorithm == "ES256")
        #expect(token.keyID == "TESTKEY001")
        #expect(token.issuer == "TESTTEAM01")
        #expect(token.issuedAt == 1_700_000_000)
        #expect(token.issuedAtWasString)
        #expect(token.hasKeyIDClaim)
    }

    @Test("accepts typ JWT in the header and extra claims")
    func typAndExtraClaims() throws {
        let token = try ProviderToken.parse(
            Self.token(
                header: #"{"typ":"JWT","alg":"ES256","kid":"TESTKEY001"}"#,
                claims: #"{"iss":"TESTTEAM01","iat":1700000000,"exp":1700003600,"aud":["x"],"nested":{"a":1}}"#
            )
        )
        #expect(token.type == "JWT")
        #expect(token.algorithm == "ES256")
        #expect(token.issuedAt == 1_700_000_000)
    }

    @Test("leaves missing alg, kid, iss and iat nil for the validator to judge")
    func missingFields() throws {
        let token = try ProviderToken.parse(Self.token(header: "{}", claims: "{}"))
        #expect(token.algorithm == nil)
        #expect(token.keyID == nil)
        #expect(token.issuer == nil)
        #expect(token.issuedAt == nil)
        #expect(!token.issuedAtWasString)
        #expect(!token.hasKeyIDClaim)
    }

    @Test("truncates a fractional iat toward zero, as RFC 7519 allows fractional NumericDates")
    func fractionalIssuedAt() throws {
        let token = try ProviderToken.parse(
            Self.token(header: #"{"alg":"ES256"}"#, claims: #"{"iss":"T","iat":1700000000.9}"#)
        )
        #expect(token.issuedAt == 1_700_000_000)
        #expect(!token.issuedAtWasString)
    }

    @Test("keeps a non-ES256 alg for the validator to reject")
    func otherAlgorithm() throws {
        let token = try ProviderToken.parse(Self.token(header: #"{"alg":"HS256","kid":"K"}"#, claims: #"{"iat":1}"#))
        #expect(token.algorithm == "HS256")
    }

    @Test(
        "rejects a malformed token with a message that says what is wrong",
        arguments: [
            ("aGVhZGVy.Y2xhaW1z", "token has 2 parts, a JWT has 3"),
            ("a.b.c.d", "token has 4 parts, a JWT has 3"),
            ("just-one-part", "token has 1 part, a JWT has 3"),
            ("", "token has 1 part, a JWT has 3"),
            ("..", "token's header part is empty"),
            ("eyJhIjoxfQ..c2ln", "token's claims part is empty"),
            ("eyJhIjoxfQ.eyJhIjoxfQ.", "token's signature part is empty"),
            ("e+J9.eyJhIjoxfQ.c2ln", "header is not base64url"),
            ("eyJhIjoxfQ.ey!9.c2ln", "claims are not base64url"),
            ("eyJhIjoxfQ.eyJhIjoxfQ.c2l*", "signature is not base64url"),
            ("eyJhIjoxfQ.eyJhIjoxfQ.Z", "signature is not base64url"),
        ] as [(String, String)]
    )
    func rejectsShape(token: String, message: String) {
        #expect(Self.parseError(token) == message)
    }

    @Test("rejects a header that is not JSON")
    func headerNotJSON() {
        let token = Self.token(header: "alg=ES256", claims: #"{"iss":"T"}"#)
        #expect(Self.parseError(token) == "header is not JSON")
    }

    @Test("rejects a header that is JSON but not an object")
    func headerNotObject() {
        let token = Self.token(header: #""ES256""#, claims: #"{"iss":"T"}"#)
        #expect(Self.parseError(token)?.hasPrefix("header is not") == true)
    }

    @Test("rejects claims that are a JSON array")
    func claimsArray() {
        let token = Self.token(header: #"{"alg":"ES256"}"#, claims: #"[{"iss":"T"}]"#)
        #expect(Self.parseError(token) == "claims are not a JSON object")
    }

    @Test("rejects claims that are not JSON")
    func claimsNotJSON() {
        let token = Self.token(header: #"{"alg":"ES256"}"#, claims: #"{"iss":"T""#)
        #expect(Self.parseError(token) == "claims are not JSON")
    }

    @Test("rejects an iat that is a boolean, null or object rather than taking it as a number")
    func issuedAtWrongType() {
        for value in ["true", "false", "null", "{}", "[1]"] {
            let token = Self.token(header: #"{"alg":"ES256"}"#, claims: #"{"iat":\#(value)}"#)
            #expect(Self.parseError(token)?.hasPrefix("iat is not a number") == true, "iat \(value)")
        }
    }

    @Test("rejects an iat too large for 64 bits")
    func issuedAtOutOfRange() {
        for value in ["9223372036854775808", "1e300"] {
            let token = Self.token(header: #"{"alg":"ES256"}"#, claims: #"{"iat":\#(value)}"#)
            #expect(Self.parseError(token)?.contains("out of range") == true, "iat \(value)")
        }
    }

    @Test("rejects alg, kid, typ or iss that are not strings")
    func fieldsWrongType() {
        #expect(Self.parseError(Self.token(header: #"{"alg":256}"#, claims: "{}")) == "header alg is not a string")
        #expect(Self.parseError(Self.token(header: #"{"kid":null}"#, claims: "{}")) == "header kid is not a string")
        #expect(Self.parseError(Self.token(header: #"{"typ":true}"#, claims: "{}")) == "header typ is not a string")
        #expect(Self.parseError(Self.token(header: "{}", claims: #"{"iss":["T"]}"#)) == "claim iss is not a string")
    }

    @Test("rejects a token over 8 KiB before decoding it")
    func rejectsOversized() {
        let claims = #"{"iss":"T","pad":"\#(String(repeating: "x", count: 9_000))"}"#
        let token = Self.token(header: #"{"alg":"ES256"}"#, claims: claims)
        #expect(Self.parseError(token)?.hasSuffix("more than the 8192 accepted") == true)
    }

    @Test("accepts a token of exactly 8 KiB and rejects one byte more")
    func lengthLimit() throws {
        // Pad the claims with JSON whitespace until the signature part can have a length base64url allows.
        var prefix = ""
        for spaces in 0..<4 {
            let claims = #"{"iss":"T"\#(String(repeating: " ", count: spaces))}"#
            prefix =
                Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "."
            if (ProviderToken.maximumLength - prefix.utf8.count) % 4 != 1 {
                break
            }
        }
        let signatureLength = ProviderToken.maximumLength - prefix.utf8.count
        let token = prefix + String(repeating: "A", count: signatureLength)
        #expect(token.utf8.count == 8_192)
        _ = try ProviderToken.parse(token)
        #expect(Self.parseError(token + "AAA") == "token is 8195 bytes, more than the 8192 accepted")
    }

    @Test("never crashes on arbitrary text")
    func arbitraryText() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCxyz019-_.=+/{}\" \n".utf8)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...120, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            _ = try? ProviderToken.parse(String(decoding: bytes, as: UTF8.self))
        }
    }
}
