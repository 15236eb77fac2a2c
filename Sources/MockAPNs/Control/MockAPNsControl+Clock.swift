import Foundation

/// The clock moves by name, for tests: `try await server.advanceClock(by: .seconds(9 * 3600))`.
extension MockAPNsControl {
    /// Moves the clock forward by `duration` (back when it is negative) and answers it after the move.
    @discardableResult
    public func advanceClock(by duration: Duration) async throws -> ClockReading {
        try await moveClock(.advance(duration))
    }

    /// Sets the clock to `date` and answers it after the move.
    @discardableResult
    public func setClock(to date: Date) async throws -> ClockReading {
        try await moveClock(.set(date))
    }

    /// Sets the clock back to real time (offset zero) and answers it after the move.
    @discardableResult
    public func resetClock() async throws -> ClockReading {
        try await moveClock(.reset)
    }
}
