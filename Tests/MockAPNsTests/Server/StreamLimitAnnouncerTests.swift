import Testing

@testable import MockAPNs

/// The stream-limit announcement rule, without a connection: times in nanoseconds, interval 1 s. A lowering goes out
/// at most once per interval, a raise at once.
@Suite("StreamLimitAnnouncer")
struct StreamLimitAnnouncerTests {
    static let second: UInt64 = 1_000_000_000

    @Test("announces the first change at once")
    func firstChangeAtOnce() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        #expect(announcer.want(1, now: 5 * Self.second, interval: Self.second) == .announce(1))
        #expect(announcer.announced == 1)
    }

    @Test("sends nothing when the value is what the client has")
    func unchanged() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        #expect(announcer.want(1000, now: 0, interval: Self.second) == .none)
        #expect(announcer.want(1, now: Self.second, interval: Self.second) == .announce(1))
        #expect(announcer.want(1, now: Self.second + 1, interval: Self.second) == .none)
    }

    @Test("a raise goes out at once, right after a lowering: one stream only until the next accepted push")
    func raiseAtOnce() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        let start = 10 * Self.second
        #expect(announcer.want(1, now: start, interval: Self.second) == .announce(1))
        #expect(announcer.want(1000, now: start + 10, interval: Self.second) == .announce(1000))
        #expect(announcer.announced == 1000)
        #expect(announcer.heldUntil == nil)
    }

    @Test("a lowering inside the interval after the last one is held, and goes out with an answer if still wanted")
    func lowersOncePerInterval() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        let start = 10 * Self.second
        #expect(announcer.want(1, now: start, interval: Self.second) == .announce(1))
        #expect(announcer.want(1000, now: start + 10, interval: Self.second) == .announce(1000))
        // A second lowering inside the interval after the first: held until the interval's end.
        #expect(announcer.want(1, now: start + 20, interval: Self.second) == .hold(until: start + Self.second))
        #expect(announcer.want(1, now: start + 30, interval: Self.second) == .none)
        #expect(announcer.heldUntil == start + Self.second)
        // Answers inside the interval release nothing; the first one after it carries the lowering.
        #expect(announcer.release(now: start + 40) == .none)
        #expect(announcer.release(now: start + Self.second) == .announce(1))
        #expect(announcer.heldUntil == nil)
        #expect(announcer.release(now: start + Self.second + 1) == .none)
        // The raise after it goes out at once; the next lowering waits for the interval after the last one.
        #expect(announcer.want(1000, now: start + Self.second + 2, interval: Self.second) == .announce(1000))
        #expect(
            announcer.want(1, now: start + Self.second + 5, interval: Self.second)
                == .hold(until: start + 2 * Self.second))
    }

    @Test("a held lowering finds nothing to send when an accepted push came before the interval ended")
    func heldLoweringDropped() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        #expect(announcer.want(1, now: 0, interval: Self.second) == .announce(1))
        #expect(announcer.want(1000, now: 1, interval: Self.second) == .announce(1000))
        #expect(announcer.want(1, now: 2, interval: Self.second) == .hold(until: Self.second))
        #expect(announcer.want(1000, now: 3, interval: Self.second) == .none)
        #expect(announcer.release(now: Self.second) == .none)
        #expect(announcer.announced == 1000)
        #expect(announcer.heldUntil == nil)
    }

    @Test("a lowering wanted again after the held interval ended is announced at once")
    func loweringAfterHold() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        #expect(announcer.want(1, now: 0, interval: Self.second) == .announce(1))
        #expect(announcer.want(1000, now: 1, interval: Self.second) == .announce(1000))
        #expect(announcer.want(1, now: 2, interval: Self.second) == .hold(until: Self.second))
        // No answer released it; the standing asks again after the interval: sent at once.
        #expect(announcer.want(1, now: 2 * Self.second, interval: Self.second) == .announce(1))
        #expect(announcer.heldUntil == nil)
    }

    @Test("announces a lowering at once after a quiet interval")
    func afterQuiet() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        #expect(announcer.want(1, now: 0, interval: Self.second) == .announce(1))
        #expect(announcer.want(1000, now: 1, interval: Self.second) == .announce(1000))
        #expect(announcer.want(1, now: Self.second, interval: Self.second) == .announce(1))
    }

    @Test("an interval of zero announces every change at once")
    func zeroInterval() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        for (index, value) in [1, 1000, 1, 1000].enumerated() {
            #expect(announcer.want(UInt32(value), now: UInt64(index), interval: 0) == .announce(UInt32(value)))
        }
    }

    @Test("a huge interval saturates instead of trapping")
    func hugeInterval() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        #expect(announcer.want(1, now: 5, interval: .max) == .announce(1))
        #expect(announcer.want(1000, now: 6, interval: .max) == .announce(1000))
        #expect(announcer.want(1, now: 7, interval: .max) == .hold(until: .max))
        #expect(announcer.release(now: .max - 1) == .none)
        #expect(Duration.seconds(Int64.max).nanoseconds == .max)
        #expect(Duration.milliseconds(-5).nanoseconds == 0)
        #expect(Duration.milliseconds(1500).nanoseconds == 1_500_000_000)
    }

    @Test("a change nghttp2 could not send leaves the client's value as it was, and is tried again at once")
    func notAnnounced() {
        var announcer = StreamLimitAnnouncer(initial: 1000)
        #expect(announcer.want(1, now: 5, interval: Self.second) == .announce(1))
        announcer.notAnnounced(clientHas: 1000)
        #expect(announcer.announced == 1000)
        // Still wanted: the same value is announced again, not taken as the client's already.
        #expect(announcer.want(1, now: 6, interval: Self.second) == .announce(1))
        #expect(announcer.announced == 1)
    }
}
