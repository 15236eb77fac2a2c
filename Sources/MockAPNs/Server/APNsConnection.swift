import Foundation

/// One connection's APNs state, with no I/O: who the client is, its provider-token standing, its id generator, the
/// rules over the world as of the last change it saw, what the validator memoized of its repeated values, the
/// verdict its last record shares, and its stream-limit standing.
///
/// `APNsConnectionHandler` owns one and lends it to the engine per push (`decide`). The state lives here, with the
/// connection, rather than being passed to the shared engine one piece at a time.
struct APNsConnection {
    /// Who the client is: address, transport, ALPN, client certificate (filled in by the TLS handshake).
    var info: ConnectionInfo {
        didSet {
            usesCertificateAuth = info.usesCertificateAuth
            listener = info.listener
        }
    }
    /// `info.listener`, kept apart for the router's one comparison per request (as `usesCertificateAuth`).
    private(set) var listener: Listener.Kind
    /// `info.usesCertificateAuth`, kept as a flag: asked on every answer, and reading it through `info` copied the
    /// optional certificate (about 15 ns a push).
    private var usesCertificateAuth: Bool
    /// The provider tokens this connection sent and what was found of them.
    var auth = ProviderAuthState()
    /// Makes the `apns-id`s and `apns-unique-id`s of this connection's answers.
    var ids = APNsIDGenerator()
    /// The verdict of the connection's last record, shared by the next while the decision is the same.
    var lastVerdict: Verdict.Shared?
    /// The rules over the world as of `worldGeneration`: made once per change, not once per request (a World is a
    /// dozen collections and strings to retain and release on every copy).
    private(set) var validator: APNsValidator
    /// What the validator worked out from this connection's repeated values; made anew with the validator.
    private(set) var memo = ValidationMemo()
    /// The engine's world generation `validator` was made for.
    private(set) var worldGeneration: UInt64
    /// The clock moves (`ProviderTokenClock.moves`) the provider token state was judged after.
    private var clockMoves: UInt64
    /// The stream limit the connection's standing asks for.
    private(set) var standing: StreamStanding

    /// A new connection's state, over the engine's world as it is now.
    init(info: ConnectionInfo, engine: MockAPNsEngine) {
        self.info = info
        usesCertificateAuth = info.usesCertificateAuth
        listener = info.listener
        worldGeneration = engine.generation
        clockMoves = engine.providerTokenClock.moves
        validator = APNsValidator(
            world: engine.world, issuedTokens: engine.activities, endedTokens: engine.endedActivityTokens,
            providerTokenClock: engine.providerTokenClock)
        standing = StreamStanding(authenticated: usesCertificateAuth, fidelity: validator.world.fidelity)
    }

    /// The world as of `worldGeneration`.
    var world: World { validator.world }

    /// Whether requests may use more than one stream as far as authentication goes: a client certificate, or an
    /// accepted provider token.
    var isAuthenticated: Bool { usesCertificateAuth || auth.isAuthenticated }

    /// Picks up a changed world (devices, keys, settings): a new validator and memo, and cached token verdicts
    /// forgotten (they may name changed keys). Takes the engine's lock: call it once per read batch, not per push.
    mutating func refreshWorld(from engine: MockAPNsEngine) {
        let generation = engine.generation
        guard generation != worldGeneration else { return }
        worldGeneration = generation
        validator = APNsValidator(
            world: engine.world, issuedTokens: engine.activities, endedTokens: engine.endedActivityTokens,
            providerTokenClock: engine.providerTokenClock)
        memo = ValidationMemo()
        auth.forgetVerdicts()
        let moves = engine.providerTokenClock.moves
        if moves != clockMoves {
            clockMoves = moves
            // The current token's iat was read at the old offset: the refresh-rate rule must not compare a new
            // token with it (moved back to real time, every new token would look 9 hours older: 429).
            auth.currentIssuedAt = nil
        }
    }

    /// Decides one request received at `receivedAt` (see `MockAPNsEngine.decide`). The request is taken apart into
    /// its journal record. Call `refreshWorld(from:)` first, once per batch.
    mutating func decide(
        _ request: consuming APNsRequest, receivedAt: Date, engine: MockAPNsEngine
    ) -> MockAPNsEngine.Reply {
        engine.decide(request, receivedAt: receivedAt, connection: &self)
    }

    /// HTTP/2 starts (after the handshake has told who the client is): the stream limit its preface announces.
    mutating func startStreamLimit() -> UInt32 {
        standing = StreamStanding(authenticated: isAuthenticated, fidelity: world.fidelity)
        return standing.limit
    }

    /// An answer with `status` is going out: the new stream limit the standing asks for, or `nil`.
    mutating func answered(status: Int) -> UInt32? {
        standing.answered(status: status, authenticated: isAuthenticated, fidelity: validator.world.fidelity)
    }

    /// Whether the client certificate is for the other environment and the world answers that with a GOAWAY
    /// right after SETTINGS (`certificateEnvironmentMismatch`; §2, seen).
    var certificateGetsGoaway: Bool {
        guard let certificate = info.clientCertificate, world.fidelity.certificateEnvironmentMismatch == .goaway else {
            return false
        }
        return !certificate.environments.isEmpty && !certificate.environments.contains(world.environment)
    }
}
