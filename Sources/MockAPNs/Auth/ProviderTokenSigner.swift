import Foundation

/// Makes APNs provider tokens, as a client would, for tests and for the `mock-apns` tool.
///
/// "Header `{"alg":"ES256","kid":"<key id>"}`, claims `{"iss":"<team id>","iat":<seconds>}`, base64url compact
/// form" (apns-reference.md §5; doc). The options reproduce client quirks the mock must accept: DER signatures
/// (Pushy) and `iat` as a string (kalyke, APNSwift).
public enum ProviderTokenSigner {
    /// A signed compact JWT for `teamID` and `keyID`, issued at `issuedAt` (seconds since 1970).
    ///
    /// - Parameters:
    ///   - encoding: `.raw` R‖S as JWS prescribes, or `.der` as Pushy sends.
    ///   - issuedAtAsString: sends `"iat":"<seconds>"` instead of a JSON number.
    public static func makeToken(
        teamID: String,
        keyID: String,
        issuedAt: Int64,
        key: ES256PrivateKey,
        encoding: ES256SignatureEncoding = .raw,
        issuedAtAsString: Bool = false
    ) -> String {
        let iat = issuedAtAsString ? jsonString(String(issuedAt)) : String(issuedAt)
        let header = #"{"alg":"ES256","kid":\#(jsonString(keyID))}"#
        let claims = #"{"iss":\#(jsonString(teamID)),"iat":\#(iat)}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = key.sign(Array(signingInput.utf8), encoding: encoding)
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// `value` as a JSON string literal, escaped by Foundation so odd ids in tests cannot break the JSON.
    private static func jsonString(_ value: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else {
            return "\"\""
        }
        return String(decoding: data, as: UTF8.self)
    }
}
