import Foundation
import NIOConcurrencyHelpers

/// Where a provider token's `iat` falls on the mock's clock, when that clock has been moved away from real time.
///
/// A provider on real time (most providers in a CI run, `mock-apns push`) mints tokens with a real `iat`; read on a
/// clock moved 9 hours ahead, every fresh token would look 9 hours old and get 403 ExpiredProviderToken forever.
/// A provider on the mock's time (an in-process test minting at the mock's clock) must keep working as it does.
/// So one shift is decided per token when the mock first sees it, and kept: a token in use keeps ageing with the
/// mock's clock (moved 61 minutes on, it is expired), while a token minted after the move is fresh, even in the
/// same second as one minted before it (a token is its JWT text, not its `iat`: ES256 signatures differ).
///
/// - offset zero: no shift (the first sight is still noted, with no shift, so that a token used before a move
///   keeps its age on a new connection after it);
/// - a token seen before, on any connection: the shift decided then;
/// - an `iat` within the token lifetime on the mock's clock: no shift (the provider shares the mock's time);
/// - else within it on real time (the mock's time minus the offset): shifted by the offset, with a note;
/// - else no shift, and the validator rejects it as expired or in the future, as it would anyway.
///
/// One per engine, shared by every connection; asked only on a full token check, never on the per-push replay of
/// a connection's accepted token (that keeps the shifted `iat`). Forgotten when the clock goes back to real time
/// and on a reset.
public final class ProviderTokenClock: Sendable {
    /// The `iat` on the mock's clock, and the note that says so when it was shifted.
    struct Reading: Equatable {
        var issuedAt: Int64
        var note: String?
    }

    /// How many tokens are remembered: the newest half always; the older half until it is replaced.
    static let capacity = 1024

    /// The clock whose offset decides the shift; `nil` for a clock that cannot move (never a shift).
    private let clock: (any APNsMovableClock)?
    private let firstSights = NIOLockedValueBox(FirstSights())

    /// Reads shifts off `clock`'s offset from real time.
    public init(clock: any APNsClock) {
        self.clock = clock as? any APNsMovableClock
    }

    /// The `iat` of `token` (its JWT text) on the mock's clock, which reads `now`, with the limits of `fidelity`.
    func reading(token: Substring, issuedAt: Int64, now: Date, fidelity: FidelitySettings) -> Reading {
        guard let clock else { return Reading(issuedAt: issuedAt) }
        let offset = clock.offset.components.seconds
        let mockNow = Int64(now.timeIntervalSince1970.rounded(.down))
        let shift = firstSights.withLockedValue { sights in
            let key = String(token)
            if let known = sights.shift(of: key) { return known }
            let decided = Self.shift(
                issuedAt: issuedAt, mockNow: mockNow, offset: offset, lifetime: fidelity.providerTokenLifetime,
                maxFuture: fidelity.maxFutureIssuedAt)
            sights.record(key, shift: decided)
            return decided
        }
        // At offset zero the mock is on real time: no shift, whatever a direct move of the clock left behind.
        guard offset != 0, shift != 0 else { return Reading(issuedAt: issuedAt) }
        let shifted = APNsValidator.sum(issuedAt, shift)
        let span = Self.spanText(shift.magnitude)
        return Reading(
            issuedAt: shifted,
            note: "provider token iat is real time; the mock's clock is \(span) \(shift > 0 ? "ahead" : "behind"): "
                + "taken as issued at \(Timestamp.text(Date(timeIntervalSince1970: TimeInterval(shifted))))")
    }

    /// Forgets every token seen: the clock is back on real time, or the mock was reset.
    public func forget() {
        firstSights.withLockedValue { $0 = FirstSights() }
    }

    /// How many times the clock has moved (`clockMoved(to:)`): a connection that sees it change forgets the `iat`
    /// its refresh-rate rule compares with, which was read at the old offset. Read only when the world changes.
    var moves: UInt64 { moveCount.withLockedValue { $0 } }
    private let moveCount = NIOLockedValueBox<UInt64>(0)

    /// The clock moved and now runs `offset` from real time: back on real time, the shifts decided while it was
    /// away no longer apply.
    func clockMoved(to offset: Duration) {
        moveCount.withLockedValue { $0 += 1 }
        if offset == .zero { forget() }
    }

    /// The shift for an `iat` first seen now, in seconds: zero or `offset` (the rule in the type's summary).
    static func shift(issuedAt: Int64, mockNow: Int64, offset: Int64, lifetime: Int64, maxFuture: Int64) -> Int64 {
        guard offset != 0 else { return 0 }
        func plausible(at now: Int64) -> Bool {
            APNsValidator.difference(now, issuedAt) <= lifetime && APNsValidator.difference(issuedAt, now) <= maxFuture
        }
        if plausible(at: mockNow) { return 0 }
        return plausible(at: APNsValidator.difference(mockNow, offset)) ? offset : 0
    }

    /// `9h`, `1h1m`, `90s` as `1m30s`: hours, minutes and seconds, the zero ones left out.
    static func spanText(_ seconds: UInt64) -> String {
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        var text = hours > 0 ? "\(hours)h" : ""
        if minutes > 0 { text += "\(minutes)m" }
        if rest > 0 || text.isEmpty { text += "\(rest)s" }
        return text
    }

    /// The shift decided per token, in two generations of half the capacity each: when the newer fills up the
    /// older is dropped, so the map stays bounded and a token in use (moved up on each sight) is kept.
    private struct FirstSights {
        var newer: [String: Int64] = [:]
        var older: [String: Int64] = [:]

        mutating func shift(of token: String) -> Int64? {
            if let shift = newer[token] { return shift }
            guard let shift = older[token] else { return nil }
            record(token, shift: shift)
            return shift
        }

        mutating func record(_ token: String, shift: Int64) {
            if newer.count >= ProviderTokenClock.capacity / 2 {
                older = newer
                newer = [:]
            }
            newer[token] = shift
        }
    }
}
