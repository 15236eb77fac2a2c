/// What one connection remembers about provider tokens: the token in use, the team and key it is bound to,
/// and the verdicts already reached for token strings it has seen.
///
/// Owned by the connection (one event loop), mutated only by `APNsValidator`.
public struct ProviderAuthState: Sendable {
    /// The team the connection is bound to by its first valid token. seen
    public var teamID: String?
    /// The key the connection is bound to by its first valid token. doc
    public var keyID: String?
    /// The token string currently in use on the connection.
    public var currentToken: String?
    /// The `iat` of the current token.
    public var currentIssuedAt: Int64?
    /// Whether any request on this connection has carried a valid token.
    public var isAuthenticated: Bool { currentToken != nil }

    /// Verdicts for token strings seen on this connection, so a token is verified once, not per request.
    private var verdicts: [String: TokenVerdict] = [:]
    private var lastVerdict: (raw: String, verdict: TokenVerdict)?
    private static let verdictLimit = 32

    public init() {}

    /// The cached verdict for `raw`, computing it (parse and signature check) on first sight.
    mutating func verdict(for token: Substring, world: World) -> TokenVerdict {
        // Most requests repeat the previous token: a comparison is cheaper than hashing a 200-byte string.
        if let last = lastVerdict, last.raw.utf8.elementsEqual(token.utf8) { return last.verdict }
        let raw = String(token)
        if let verdict = verdicts[raw] {
            lastVerdict = (raw, verdict)
            return verdict
        }
        let verdict = TokenVerdict.evaluate(raw, world: world)
        if verdicts.count >= Self.verdictLimit { verdicts.removeAll(keepingCapacity: true) }
        verdicts[raw] = verdict
        lastVerdict = (raw, verdict)
        return verdict
    }

    /// Forgets cached verdicts (after the world's keys change).
    public mutating func forgetVerdicts() {
        verdicts.removeAll()
        lastVerdict = nil
    }
}

/// The time-independent part of checking a provider token: its form, its key and its signature.
enum TokenVerdict: Sendable {
    /// Not a usable JWT; the message says why.
    case malformed(String)
    /// Well formed; `key` is the known key for its `kid` (nil when unknown), `signatureValid` its check.
    case parsed(ProviderToken, key: SigningKey?, signatureValid: Bool)

    static func evaluate(_ raw: String, world: World) -> TokenVerdict {
        let token: ProviderToken
        do {
            token = try ProviderToken.parse(raw)
        } catch {
            return .malformed(error.message)
        }
        guard let keyID = token.keyID, let key = world.keys[keyID] else {
            return .parsed(token, key: nil, signatureValid: false)
        }
        let check = key.publicKey.verify(signature: token.signature, message: token.signingInput)
        return .parsed(token, key: key, signatureValid: check != .invalid)
    }
}
