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
    /// The `iat` of the current token, on the mock's clock (`ProviderTokenClock`).
    public var currentIssuedAt: Int64?
    /// Whether any request on this connection has carried a valid token.
    public var isAuthenticated: Bool { currentToken != nil }

    /// The outcome of the last full check of the current token, replayed for the same `authorization` value
    /// (only the time-dependent checks run again). Forgotten when the world changes.
    ///
    /// A class: every push on the connection reads it, and a reference is one retain where the fields were a dozen.
    final class Accepted: Sendable {
        let header: String
        /// The token's `iat` on the mock's clock (`ProviderTokenClock`): the replay checks its age with no more work.
        let issuedAt: Int64
        let summary: AuthSummary?
        /// The signing key when it is limited to some topics (nil otherwise: the later checks need it for that only).
        let key: SigningKey?
        let notes: [String]

        init(header: String, issuedAt: Int64, summary: AuthSummary?, key: SigningKey?, notes: [String]) {
            self.header = header
            self.issuedAt = issuedAt
            self.summary = summary
            self.key = key
            self.notes = notes
        }
    }
    var accepted: Accepted?

    /// Verdicts for token strings seen on this connection, so a token is verified once, not per request.
    private var verdicts: [String: TokenVerdict] = [:]
    private var lastHeader: (header: String, token: Substring, verdict: TokenVerdict)?
    /// The `authorization` value that carried the current token.
    private var currentHeader: String?
    private static let verdictLimit = 32

    public init() {}

    /// The token and verdict of an `authorization` header value, computing the verdict (parse and signature
    /// check) on the first sight of the token. `nil` when the header is not `bearer <token>`.
    mutating func verdict(forHeader header: String, world: World) -> (token: Substring, verdict: TokenVerdict)? {
        // Most requests repeat the previous header: String equality is a memcmp, unlike a walk over a Substring.
        if let last = lastHeader, last.header == header { return (last.token, last.verdict) }
        guard let token = APNsValidator.bearerToken(header) else { return nil }
        let raw = String(token)
        let verdict: TokenVerdict
        if let known = verdicts[raw] {
            verdict = known
        } else {
            verdict = TokenVerdict.evaluate(raw, world: world)
            if verdicts.count >= Self.verdictLimit { verdicts.removeAll(keepingCapacity: true) }
            verdicts[raw] = verdict
        }
        lastHeader = (header, token, verdict)
        return (token, verdict)
    }

    /// Whether `header` carries the connection's current token.
    func isCurrent(header: String, token: Substring) -> Bool {
        if currentHeader == header { return true }
        guard let currentToken else { return false }
        return currentToken.utf8.elementsEqual(token.utf8)
    }

    /// Makes `token` (sent in `header`) the connection's current token.
    mutating func install(header: String, token: Substring, issuedAt: Int64) {
        if !isCurrent(header: header, token: token) { currentToken = String(token) }
        currentHeader = header
        currentIssuedAt = issuedAt
    }

    /// Forgets cached verdicts (after the world's keys change).
    public mutating func forgetVerdicts() {
        verdicts.removeAll()
        lastHeader = nil
        accepted = nil
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
