import MockAPNs

extension MockAPNsControlClient {
    /// The mock's clock (`GET /v1/clock`).
    public func clock() async throws -> ClockReading {
        try Self.reading(try await call("GET", "/v1/clock"))
    }

    /// Moves the mock's clock (`POST /v1/clock`) and answers it after the move.
    public func moveClock(_ move: ClockMove) async throws -> ClockReading {
        try Self.reading(try await call("POST", "/v1/clock", body: move.json.jsonText))
    }

    private static func reading(_ json: JSONValue) throws -> ClockReading {
        guard let reading = ClockReading(json: json) else { throw unreadable("clock") }
        return reading
    }
}
