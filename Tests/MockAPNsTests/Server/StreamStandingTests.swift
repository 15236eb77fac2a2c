import Testing

@testable import MockAPNs

/// The APNs stream-limit rule, without a connection: which SETTINGS_MAX_CONCURRENT_STREAMS each answer asks for.
@Suite("StreamStanding")
struct StreamStandingTests {
    static let fidelity = FidelitySettings()

    @Test("a token connection starts at 1 before a valid provider token, a certificate connection at the maximum")
    func startsAtOneBeforeAuthentication() {
        #expect(StreamStanding(authenticated: false, fidelity: Self.fidelity).limit == 1)
        #expect(StreamStanding(authenticated: true, fidelity: Self.fidelity).limit == 1000)
        var open = FidelitySettings()
        open.singleStreamUntilAuthenticated = false
        #expect(StreamStanding(authenticated: false, fidelity: open).limit == 1000)
    }

    @Test("a good push with a valid token raises the limit; a push still unauthenticated does not")
    func raisesAfterGoodPush() {
        var standing = StreamStanding(authenticated: false, fidelity: Self.fidelity)
        #expect(standing.answered(status: 403, authenticated: false, fidelity: Self.fidelity) == nil)
        #expect(standing.answered(status: 200, authenticated: false, fidelity: Self.fidelity) == nil)
        #expect(standing.answered(status: 200, authenticated: true, fidelity: Self.fidelity) == 1000)
        #expect(standing.limit == 1000)
    }

    @Test("a rejected push (4xx except 410) drops the limit to 1 until the next success")
    func dropsAfterError() {
        var standing = StreamStanding(authenticated: true, fidelity: Self.fidelity)
        #expect(standing.answered(status: 400, authenticated: true, fidelity: Self.fidelity) == 1)
        #expect(standing.inError)
        // Still in error: a second rejection, a 410 and a 5xx change nothing.
        #expect(standing.answered(status: 403, authenticated: true, fidelity: Self.fidelity) == nil)
        #expect(standing.answered(status: 410, authenticated: true, fidelity: Self.fidelity) == nil)
        #expect(standing.answered(status: 500, authenticated: true, fidelity: Self.fidelity) == nil)
        #expect(standing.answered(status: 200, authenticated: true, fidelity: Self.fidelity) == 1000)
        #expect(!standing.inError)
    }

    @Test("410, 429 and 5xx: only 4xx other than 410 count as an error")
    func whichStatusesCount() {
        var standing = StreamStanding(authenticated: true, fidelity: Self.fidelity)
        #expect(standing.answered(status: 410, authenticated: true, fidelity: Self.fidelity) == nil)
        #expect(standing.answered(status: 503, authenticated: true, fidelity: Self.fidelity) == nil)
        #expect(!standing.inError)
        #expect(standing.answered(status: 429, authenticated: true, fidelity: Self.fidelity) == 1)
    }

    @Test("with singleStreamAfterError off an error keeps the limit")
    func errorWithoutSingleStream() {
        var fidelity = FidelitySettings()
        fidelity.singleStreamAfterError = false
        var standing = StreamStanding(authenticated: true, fidelity: fidelity)
        #expect(standing.answered(status: 400, authenticated: true, fidelity: fidelity) == nil)
        #expect(standing.inError)
        #expect(standing.limit == 1000)
    }

    @Test("no new limit while the value would not change")
    func noChangeWithoutNewValue() {
        var standing = StreamStanding(authenticated: true, fidelity: Self.fidelity)
        for _ in 0..<3 {
            #expect(standing.answered(status: 200, authenticated: true, fidelity: Self.fidelity) == nil)
        }
        var single = FidelitySettings()
        single.maxConcurrentStreams = 1
        // The standing flips (error, then success) but the limit is 1 either way.
        #expect(standing.answered(status: 400, authenticated: true, fidelity: single) == 1)
        #expect(standing.answered(status: 200, authenticated: true, fidelity: single) == nil)
        #expect(standing.answered(status: 400, authenticated: true, fidelity: single) == nil)
    }

    @Test("a changed maxConcurrentStreams takes effect with the next answer; huge values clamp")
    func followsFidelity() {
        var standing = StreamStanding(authenticated: true, fidelity: Self.fidelity)
        var changed = FidelitySettings()
        changed.maxConcurrentStreams = 10
        #expect(standing.answered(status: 200, authenticated: true, fidelity: changed) == 10)
        changed.maxConcurrentStreams = Int.max
        #expect(standing.answered(status: 200, authenticated: true, fidelity: changed) == UInt32.max)
    }
}
