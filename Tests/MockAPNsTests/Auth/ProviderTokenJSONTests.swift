import Testing

@testable import MockAPNs

/// The token's header and claims are read with the project's `JSONParser` (issue 21 item 5); what it tells a client
/// about its JSON is what `JSONSerialization` told before.
@Suite("ProviderToken JSON")
struct ProviderTokenJSONTests {
    /// The message `parse` throws for a token of these header and claims texts, or `nil` when it parses.
    private static func parseError(header: String = #"{"alg":"ES256"}"#, claims: String) -> String? {
        let token =
            Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "."
            + Base64URL.encode(Array(repeating: 7, count: 64))
        do {
            _ = try ProviderToken.parse(token)
            return nil
        } catch {
            return error.message
        }
    }

    /// The token of these claims, parsed.
    private static func parse(claims: String) throws -> ProviderToken {
        try ProviderToken.parse(
            Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "."
                + Base64URL.encode(Array(repeating: 7, count: 64)))
    }

    @Test("an iat out of range is named as JSONSerialization's number printed it")
    func outOfRangeText() {
        #expect(Self.parseError(claims: #"{"iat":1e300}"#) == "iat 1e+300 is out of range")
        #expect(Self.parseError(claims: #"{"iat":-1e19}"#) == "iat -1e+19 is out of range")
        #expect(Self.parseError(claims: #"{"iat":9223372036854775808}"#) == "iat 9223372036854775808 is out of range")
        // JSONSerialization read this one as a decimal and took it as -9223372036854775807.
        #expect(
            Self.parseError(claims: #"{"iat":-9223372036854775809}"#) == "iat -9223372036854775809 is out of range")
    }

    @Test("a whole number written with a fraction or exponent is an exact iat, a fraction is flagged")
    func wholeNumbers() throws {
        let exponent = try Self.parse(claims: #"{"iat":1.7e9}"#)
        #expect(exponent.issuedAt == 1_700_000_000 && !exponent.issuedAtHadFraction)
        let zero = try Self.parse(claims: #"{"iat":1700000000.0}"#)
        #expect(zero.issuedAt == 1_700_000_000 && !zero.issuedAtHadFraction)
        let fraction = try Self.parse(claims: #"{"iat":-1700000000.5}"#)
        #expect(fraction.issuedAt == -1_700_000_000 && fraction.issuedAtHadFraction)
    }

    @Test("a repeated claim reads as its last value, as JSONSerialization kept it")
    func repeatedClaim() throws {
        let token = try Self.parse(claims: #"{"iss":"FIRST","iat":1,"iss":"LAST","iat":2}"#)
        #expect(token.issuer == "LAST" && token.issuedAt == 2)
    }

    @Test("a text that is not an object or an array, or holds a number no Double holds, is not JSON")
    func notJSON() {
        #expect(Self.parseError(header: #""ES256""#, claims: "{}") == "header is not JSON")
        #expect(Self.parseError(claims: "12") == "claims are not JSON")
        #expect(Self.parseError(claims: "null") == "claims are not JSON")
        #expect(Self.parseError(claims: #"{"iat":1e400}"#) == "claims are not JSON")
        #expect(Self.parseError(claims: #"[1e400]"#) == "claims are not JSON")
        #expect(Self.parseError(claims: "[]") == "claims are not a JSON object")
        #expect(Self.parseError(claims: #"{"iss":"T"} x"#) == "claims are not JSON")
    }

    @Test("a UTF-8 byte-order mark before the JSON is skipped")
    func byteOrderMark() throws {
        #expect(try Self.parse(claims: "\u{FEFF}{\"iss\":\"T\"}").issuer == "T")
    }
}
