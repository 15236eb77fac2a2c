import Foundation
import NIOConcurrencyHelpers

/// Where the mock reads the time: injected so tests can move it (token expiry, the 20-minute rule, 410s).
public protocol APNsClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
}

/// A clock that `POST /v1/clock` (and `MockAPNsControl.moveClock`) can move: `MovableClock`, the server's default,
/// and `ManualClock`.
public protocol APNsMovableClock: APNsClock {
    /// The time and the offset, read together.
    func reading() -> ClockReading

    /// How far the clock is from real time (from its start date for a `ManualClock`), without reading the time.
    var offset: Duration { get }

    /// Applies `move` and answers the clock after it; refused (`InputError`) when the offset would pass
    /// `ClockMove.maximumOffset` either way, and then the clock stays where it was.
    @discardableResult
    func move(_ move: ClockMove) throws(InputError) -> ClockReading
}

extension APNsMovableClock {
    /// The offset of a `reading()`; `MovableClock` reads it with one atomic load instead.
    public var offset: Duration { reading().offset }
}

/// The system's clock. It cannot be moved: the server's default is `MovableClock`, real time plus an offset.
public struct SystemClock: APNsClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to. Its offset is how far it is from the date it started at, and a reset
/// (`ClockMove.reset`, `POST /v1/reset`) takes it back there.
public final class ManualClock: APNsMovableClock {
    private let start: Date
    private let current: NIOLockedValueBox<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.start = start
        current = NIOLockedValueBox(start)
    }

    public func now() -> Date { current.withLockedValue { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0 += seconds }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLockedValue { $0 = date }
    }

    /// The time and how far it is from the start date.
    public func reading() -> ClockReading {
        let now = now()
        return ClockReading(now: now, offset: ClockMove.duration(now.timeIntervalSince(start)))
    }

    /// Applies `move`, with the start date as the time at offset zero.
    @discardableResult
    public func move(_ move: ClockMove) throws(InputError) -> ClockReading {
        // NIOLockedValueBox rethrows untyped errors: the typed one comes out through a Result.
        let moved = current.withLockedValue { current in
            Result { () throws(InputError) -> ClockReading in
                let offset = try move.offset(from: ClockMove.duration(current.timeIntervalSince(start)), base: start)
                current = start + DurationText.seconds(offset)
                return ClockReading(now: current, offset: offset)
            }
        }
        return try moved.get()
    }
}
