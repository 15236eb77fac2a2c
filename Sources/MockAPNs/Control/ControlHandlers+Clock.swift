import Hummingbird

extension ControlHandlers {
    /// `POST /v1/clock`: one of `{"advance": "9h"}`, `{"set": "<ISO 8601>"}`, `{"reset": true}`; answers the clock.
    func moveClock(_ request: Request) async throws -> Response {
        let move = try ClockMove(json: try await Self.bodyText(request))
        return ControlResponse.json(try await server.moveClock(move).json)
    }
}
