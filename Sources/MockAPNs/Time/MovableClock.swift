import Atomics
import Foundation

/// The server's clock: real time plus an offset that `POST /v1/clock` moves (advance, set, reset).
///
/// Everything the mock records or decides with reads it: records' times, provider-token lifetimes, the `since` of
/// unregistered devices, 410 timestamps. Scripted delays stay in real time (they model the network).
///
/// Read once per batch of requests: the offset is one atomic load (no lock), and at offset zero the time is
/// `Date()` itself. A move is a compare-and-exchange, so concurrent moves never lose one another.
public final class MovableClock: APNsMovableClock {
    /// The offset from real time, in nanoseconds (±`ClockMove.maximumOffset`, far inside Int64).
    private let offsetNanoseconds = ManagedAtomic<Int64>(0)

    /// A clock at real time (offset zero).
    public init() {}

    /// Real time plus the offset.
    public func now() -> Date {
        let offset = offsetNanoseconds.load(ordering: .relaxed)
        return offset == 0 ? Date() : Date(timeIntervalSinceNow: Double(offset) / 1e9)
    }

    /// The offset from real time.
    public var offset: Duration { .nanoseconds(offsetNanoseconds.load(ordering: .relaxed)) }

    /// The time and the offset, read together.
    public func reading() -> ClockReading {
        let offset = offset
        return ClockReading(now: Date() + DurationText.seconds(offset), offset: offset)
    }

    /// Applies `move`, with real time as the time at offset zero.
    @discardableResult
    public func move(_ move: ClockMove) throws(InputError) -> ClockReading {
        var current = offsetNanoseconds.load(ordering: .relaxed)
        while true {
            let base = Date()
            let next = try move.offset(from: .nanoseconds(current), base: base)
            let nanoseconds = Self.nanoseconds(next)
            let (exchanged, found) = offsetNanoseconds.compareExchange(
                expected: current, desired: nanoseconds, ordering: .relaxed)
            if exchanged { return ClockReading(now: base + DurationText.seconds(next), offset: next) }
            current = found
        }
    }

    /// `duration` in whole nanoseconds; within `ClockMove.maximumOffset`, so it cannot overflow.
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
