import Foundation
import Testing

@testable import MockAPNs

/// `ProviderTokenClock` on its own, on a `ManualClock`: the shift rule, the bound on the `iat` values kept, the
/// note's span.
@Suite("Provider token clock")
struct ProviderTokenClockTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let fidelity = FidelitySettings()

    /// The reading of a token issued at `issuedAt` at the clock's now; the token's text is `token`, else one per
    /// `iat`.
    static func read(
        _ tokens: ProviderTokenClock, _ clock: ManualClock, _ issuedAt: Int64, token: String? = nil
    ) -> ProviderTokenClock.Reading {
        tokens.reading(
            token: Substring(token ?? "token issued at \(issuedAt)"), issuedAt: issuedAt, now: clock.now(),
            fidelity: fidelity)
    }

    @Test("shifts an iat plausible only on real time by the offset, keeps the shift, and never shifts at offset zero")
    func shiftRule() throws {
        let clock = ManualClock(Self.start)
        let tokens = ProviderTokenClock(clock: clock)
        let real = Int64(Self.start.timeIntervalSince1970)
        #expect(Self.read(tokens, clock, real) == .init(issuedAt: real))
        clock.advance(by: 9 * 3600)
        #expect(Self.read(tokens, clock, real) == .init(issuedAt: real))  // seen at offset zero: ages
        let fresh = Self.read(tokens, clock, real + 5)
        #expect(fresh.issuedAt == real + 5 + 9 * 3600)
        #expect(fresh.note?.hasPrefix("provider token iat is real time; the mock's clock is 9h ahead") == true)
        #expect(Self.read(tokens, clock, real + 9 * 3600) == .init(issuedAt: real + 9 * 3600))  // the mock's time
        #expect(Self.read(tokens, clock, real - 2 * 3600) == .init(issuedAt: real - 2 * 3600))  // neither: as it is
        clock.advance(by: 1800)
        #expect(Self.read(tokens, clock, real + 5).issuedAt == real + 5 + 9 * 3600)  // the shift of its first sight
        clock.set(Self.start)
        #expect(Self.read(tokens, clock, real + 5) == .init(issuedAt: real + 5))
        #expect(
            ProviderTokenClock(clock: SystemClock()).reading(
                token: "t", issuedAt: 5, now: Date(), fidelity: Self.fidelity) == .init(issuedAt: 5))
    }

    @Test("a token minted after the move in the same second as one seen before it is fresh: tokens, not iat values")
    func sameSecond() {
        let clock = ManualClock(Self.start)
        let tokens = ProviderTokenClock(clock: clock)
        let real = Int64(Self.start.timeIntervalSince1970)
        #expect(Self.read(tokens, clock, real, token: "A") == .init(issuedAt: real))
        clock.advance(by: 9 * 3600)
        #expect(Self.read(tokens, clock, real, token: "A") == .init(issuedAt: real))  // A ages with the clock
        #expect(Self.read(tokens, clock, real, token: "B").issuedAt == real + 9 * 3600)  // B, same iat, is fresh
    }

    @Test("keeps at most 1024 iat values: the oldest are dropped, one in use is kept")
    func bounded() {
        let clock = ManualClock(Self.start)
        let tokens = ProviderTokenClock(clock: clock)
        let real = Int64(Self.start.timeIntervalSince1970)
        clock.advance(by: 9 * 3600)
        #expect(Self.read(tokens, clock, real).note != nil)  // in use all along
        #expect(Self.read(tokens, clock, real - 1).note != nil)  // seen once
        for second in 1...1100 {
            _ = Self.read(tokens, clock, real + 9 * 3600 - Int64(second))
            if second % 400 == 0 { _ = Self.read(tokens, clock, real) }
        }
        clock.advance(by: 3600)
        // Seen again an hour later: the one in use keeps its first sight's shift (9h); the forgotten one is judged
        // anew, at the offset of now (10h).
        #expect(Self.read(tokens, clock, real).issuedAt == real + 9 * 3600)
        #expect(Self.read(tokens, clock, real - 1).issuedAt == real - 1 + 10 * 3600)
    }

    @Test("writes the span in hours, minutes and seconds", arguments: [
        (UInt64(9 * 3600), "9h"), (3660, "1h1m"), (90, "1m30s"), (3601, "1h1s"), (0, "0s"),
    ])
    func spanText(seconds: UInt64, text: String) {
        #expect(ProviderTokenClock.spanText(seconds) == text)
    }
}
