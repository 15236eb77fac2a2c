import MockAPNs

extension MockAPNsTestServer {
    /// The mock's clock.
    public func clock() async throws -> ClockReading { try await server.clock() }
    /// Moves the mock's clock and answers it after the move.
    public func moveClock(_ move: ClockMove) async throws -> ClockReading { try await server.moveClock(move) }
}
