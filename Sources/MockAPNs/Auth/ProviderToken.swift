import Foundation

/// An APNs provider token (a JWT) taken apart but not yet trusted: nothing here checks the signature or the
/// claims' values.
///
/// "Header `{"alg":"ES256","kid":"<key id>"}`, claims `{"iss":"<team id>","iat":<seconds>}`, base64url compact
/// form" (apns-reference.md §5; doc). Parsing only fails when the token is not a JWT at all; a missing `alg`,
/// `kid`, `iss` or `iat` is left `nil` for the validator to answer, so that it can say which one is missing.
///
/// Client quirks are kept visible rather than smoothed over: `iat` as a numeric string (kalyke, APNSwift),
/// a `kid` claim (APNSwift), whitespace inside the JSON (APNSwift) and `typ: "JWT"` (Pushy) all parse (lib).
public struct ProviderToken: Sendable, Hashable {
    /// The largest token accepted, in UTF-8 bytes. A real APNs token is about 200 bytes.
    public static let maximumLength = 8 * 1024

    /// The compact token as received, without the `bearer ` prefix.
    public let raw: String
    /// The header's `alg`; APNs wants `ES256`.
    public let algorithm: String?
    /// The header's `kid`: the 10-character id of the signing key.
    public let keyID: String?
    /// The header's `typ`, usually absent or `JWT`.
    public let type: String?
    /// The `iss` claim: the 10-character team id.
    public let issuer: String?
    /// The `iat` claim in seconds since 1970, from a JSON number or a numeric string.
    ///
    /// A fractional number is truncated toward zero, as RFC 7519 §2 allows fractional NumericDates. A string
    /// that is not an integer gives `nil`, as if the claim were missing.
    public let issuedAt: Int64?
    /// `true` when `iat` was sent as a numeric string (kalyke, APNSwift) rather than a JSON number.
    public let issuedAtWasString: Bool
    /// `true` when `iat` was a JSON number with a fraction (apns2-up and pyapns_client send `time.time()`).
    public let issuedAtHadFraction: Bool
    /// `true` when the claims carry a `kid` too, as APNSwift sends them.
    public let hasKeyIDClaim: Bool
    /// The bytes that were signed: `<header b64>.<claims b64>`.
    public let signingInput: [UInt8]
    /// The decoded signature: 64 raw bytes R‖S, or DER (Pushy), or anything else the client sent.
    public let signature: [UInt8]

    /// Splits and decodes a compact JWT.
    ///
    /// - Throws: `ProviderTokenError` when the token is longer than `maximumLength`, does not have three
    ///   non-empty dot-separated parts, a part is not base64url, the header or claims are not a JSON object,
    ///   or a known field has the wrong JSON type.
    public static func parse(_ token: some StringProtocol) throws(ProviderTokenError) -> ProviderToken {
        let bytes = Array(token.utf8)
        guard bytes.count <= maximumLength else {
            throw ProviderTokenError("token is \(bytes.count) bytes, more than the \(maximumLength) accepted")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw ProviderTokenError("token has \(parts.count) part\(parts.count == 1 ? "" : "s"), a JWT has 3")
        }
        let names = ["header", "claims", "signature"]
        for (part, name) in zip(parts, names) where part.isEmpty {
            throw ProviderTokenError("token's \(name) part is empty")
        }

        let header = try decodeObject(parts[0], name: "header", verb: "is")
        let claims = try decodeObject(parts[1], name: "claims", verb: "are")
        guard let signature = Base64URL.decode(String(decoding: parts[2], as: UTF8.self)) else {
            throw ProviderTokenError("signature is not base64url")
        }
        let issuedAt = try readIssuedAt(claims["iat"])

        return ProviderToken(
            raw: String(token),
            algorithm: try readString(header["alg"], name: "header alg"),
            keyID: try readString(header["kid"], name: "header kid"),
            type: try readString(header["typ"], name: "header typ"),
            issuer: try readString(claims["iss"], name: "claim iss"),
            issuedAt: issuedAt.value,
            issuedAtWasString: issuedAt.wasString,
            issuedAtHadFraction: issuedAt.hadFraction,
            hasKeyIDClaim: claims["kid"] != nil,
            signingInput: Array(bytes[..<parts[1].endIndex]),
            signature: signature
        )
    }

    /// A JSON object's members; a repeated name reads as its last member, as JSONSerialization (which parsed
    /// tokens before) and most JWT libraries read it.
    private struct Members {
        let members: [(String, JSONValue)]

        subscript(name: String) -> JSONValue? {
            members.last { $0.0 == name }?.1
        }
    }

    /// Decodes one base64url part and reads it as a JSON object.
    ///
    /// What is "not JSON" is what it was with JSONSerialization: a text that is not an array or an object, or that
    /// holds a number no `Double` can hold (`1e400`); a UTF-8 byte-order mark before it is skipped.
    private static func decodeObject(
        _ part: ArraySlice<UInt8>,
        name: String,
        verb: String
    ) throws(ProviderTokenError) -> Members {
        guard var json = Base64URL.decode(String(decoding: part, as: UTF8.self)) else {
            throw ProviderTokenError("\(name) \(verb) not base64url")
        }
        if json.starts(with: [0xEF, 0xBB, 0xBF]) { json.removeFirst(3) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(json)
        } catch {
            throw ProviderTokenError("\(name) \(verb) not JSON")
        }
        switch value {
        case .object(let members) where !hasUnrepresentableNumber(value): return Members(members: members)
        case .array where !hasUnrepresentableNumber(value):
            throw ProviderTokenError("\(name) \(verb) not a JSON object")
        default: throw ProviderTokenError("\(name) \(verb) not JSON")
        }
    }

    /// Whether `value` holds a number too large for a `Double` (`1e400`).
    private static func hasUnrepresentableNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let text): Double(text)?.isFinite != true
        case .array(let elements): elements.contains(where: hasUnrepresentableNumber)
        case .object(let members): members.contains { hasUnrepresentableNumber($0.1) }
        default: false
        }
    }

    /// Reads an optional string field; another JSON type is an error, since no client sends one by mistake.
    private static func readString(_ value: JSONValue?, name: String) throws(ProviderTokenError) -> String? {
        guard let value else {
            return nil
        }
        guard case .string(let string) = value else {
            throw ProviderTokenError("\(name) is not a string")
        }
        return string
    }

    /// Reads `iat` from a JSON number or a numeric string.
    private static func readIssuedAt(
        _ value: JSONValue?
    ) throws(ProviderTokenError) -> (value: Int64?, wasString: Bool, hadFraction: Bool) {
        switch value {
        case nil:
            return (nil, false, false)
        case .string(let string)?:
            return (Int64(string), true, false)
        case .bool?:
            throw ProviderTokenError("iat is not a number (it is a boolean)")
        case .number(let text)?:
            if let exact = Int64(text) {
                return (exact, false, false)
            }
            let seconds = Double(text) ?? .nan
            guard seconds.isFinite, seconds > -9.2e18, seconds < 9.2e18 else {
                // As JSONSerialization's NSNumber printed it: an integer as written, any other as a Double.
                let isInteger = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
                throw ProviderTokenError("iat \(isInteger ? text : String(seconds)) is out of range")
            }
            let whole = seconds.rounded(.towardZero)
            return (Int64(whole), false, whole != seconds)
        default:
            throw ProviderTokenError("iat is not a number")
        }
    }
}
