/// The APNs stream-limit rule (§2, seen): what SETTINGS_MAX_CONCURRENT_STREAMS a connection's standing asks for.
///
/// A token connection gets one stream until a request with a valid provider token
/// (`singleStreamUntilAuthenticated`); after a rejected push (4xx except 410) the limit drops to one until the next
/// success (`singleStreamAfterError`); otherwise it is `maxConcurrentStreams`.
///
/// A state machine without I/O: the connection tells it each answer and gets back a new limit, or `nil` when the
/// limit stays. *When* a new limit goes out (one SETTINGS frame per interval) is `StreamLimitAnnouncer`'s to say.
struct StreamStanding {
    /// Whether the last rejected push (4xx except 410) has had no success after it.
    private(set) var inError = false
    /// The limit the standing asks for now (the connection preface's to begin with).
    private(set) var limit: UInt32

    /// The standing of a new connection: no error yet.
    init(authenticated: Bool, fidelity: FidelitySettings) {
        limit = Self.limit(authenticated: authenticated, inError: false, fidelity: fidelity)
    }

    /// An answer with `status` is going out; `authenticated` is the connection's standing after its request (a
    /// client certificate, or an accepted provider token). Returns the new limit, or `nil` when it is unchanged.
    ///
    /// `fidelity` is read on every call, so a changed world's settings take effect with the next answer.
    mutating func answered(status: Int, authenticated: Bool, fidelity: FidelitySettings) -> UInt32? {
        if status == 200 {
            inError = false
        } else if (400..<500).contains(status), status != 410 {
            inError = true
        }
        let value = Self.limit(authenticated: authenticated, inError: inError, fidelity: fidelity)
        guard value != limit else { return nil }
        limit = value
        return value
    }

    /// The limit the rule gives for a standing.
    static func limit(authenticated: Bool, inError: Bool, fidelity: FidelitySettings) -> UInt32 {
        if fidelity.singleStreamUntilAuthenticated && !authenticated { return 1 }
        if fidelity.singleStreamAfterError && inError { return 1 }
        return UInt32(clamping: fidelity.maxConcurrentStreams)
    }
}
