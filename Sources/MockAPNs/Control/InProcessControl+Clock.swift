/// The clock operations in-process: they move the engine's clock, which every connection reads.
extension InProcessControl {
    /// The mock's clock; a clock that cannot move (`SystemClock`) reads as offset zero.
    public func clock() async throws -> ClockReading {
        movableClock?.reading() ?? ClockReading(now: engine.clock.now(), offset: .zero)
    }

    /// Moves the mock's clock and answers it after the move; 409 when the server runs on a clock that cannot move.
    public func moveClock(_ move: ClockMove) async throws -> ClockReading {
        guard let movableClock else {
            throw MockAPNsControlError(
                status: 409,
                "this server runs on a \(type(of: engine.clock)), which cannot move; start it with a MovableClock "
                    + "(the default) or a ManualClock")
        }
        let reading: ClockReading
        do { reading = try movableClock.move(move) } catch { throw MockAPNsControlError(error) }
        engine.providerTokenClock.clockMoved(to: reading.offset)
        // Every connection drops the provider token it accepted at the old offset (its iat was read there) and
        // judges it again on the next push.
        engine.updateWorld { _ in }
        // Expiries in APNs's storage that the move passed (phone.md §1): their events, now.
        engine.settlePhones()
        return reading
    }

    /// The engine's clock when it can move.
    var movableClock: (any APNsMovableClock)? { engine.clock as? any APNsMovableClock }
}
