import MockAPNs

extension MockAPNsControlClient {
    /// The mock's clock (`GET /v1/clock`).
    public func clock() async throws -> ClockReading {
        try Self.decode(try await call("GET", "/v1/clock"), "clock")
    }

    /// Moves the mock's clock (`POST /v1/clock`) and answers it after the move.
    public func moveClock(_ move: ClockMove) async throws -> ClockReading {
        try Self.decode(try await call("POST", "/v1/clock", body: move.json.jsonText), "clock")
    }
}
