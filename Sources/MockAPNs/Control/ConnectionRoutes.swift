import Hummingbird

/// `GET /v1/connections` and `GET /v1/connections/{id}`, over whatever lists the connections: a running mock's
/// history and journal, or a journal file's records (`mock-apns inspect`).
struct ConnectionRoutes: Sendable {
    /// Every connection known, by id.
    var all: @Sendable () async throws -> [ConnectionSummary]
    /// Connection `id`, or `nil` when nothing knows it.
    var one: @Sendable (UInt64) async throws -> ConnectionSummary?

    /// Adds the two routes to `router`.
    func register(on router: Router<BasicRequestContext>) {
        router.get("/v1/connections") { _, _ in
            let connections = try await all()
            return ControlResponse.json(
                .object([
                    ("count", .number(String(connections.count))), ("connections", .array(connections.map(\.json))),
                ]))
        }
        router.get("/v1/connections/{id}") { _, context in
            let text = context.parameters.get("id") ?? ""
            guard let id = UInt64(text) else {
                throw MockAPNsControlError.badRequest(
                    "'\(text)' is not a connection number; GET /v1/connections/{id} takes a record's connection, "
                        + "such as 1")
            }
            guard let connection = try await one(id) else {
                throw MockAPNsControlError.notFound(
                    "no connection \(id): the server keeps the last \(ConnectionHistory.capacity) connections and "
                        + "those the journal's records name; list them with GET /v1/connections")
            }
            return ControlResponse.json(connection.json)
        }
    }
}
