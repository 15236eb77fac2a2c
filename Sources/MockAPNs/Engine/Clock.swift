import Foundation
import NIOConcurrencyHelpers

/// Where the mock reads the time: injected so tests can move it (token expiry, the 20-minute rule, 410s).
public protocol APNsClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
}

/// The system's clock.
public struct SystemClock: APNsClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to.
public final class ManualClock: APNsClock {
    private let current: NIOLockedValueBox<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
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
}
