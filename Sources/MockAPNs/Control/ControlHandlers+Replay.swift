import Hummingbird

extension ControlHandlers {
    /// Adds the routes of replay, copy as curl and connections (issue 22) to `router`.
    func registerReplay(on router: Router<BasicRequestContext>) {
        router.post("/v1/requests/{seq}/replay") { request, context in
            try await self.replay(context.parameters.get("seq") ?? "", request)
        }
        router.get("/v1/requests/{seq}/curl") { _, context in
            let sequence = try Self.sequence(context.parameters.get("seq") ?? "", route: "GET /v1/requests/{seq}/curl")
            return ControlResponse.text(
                try await self.server.curl(sequence), contentType: "text/plain; charset=utf-8")
        }
        router.get("/v1/connections") { _, _ in
            let connections = try await self.server.connections()
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
            guard let connection = try await self.server.connection(id: id) else {
                throw MockAPNsControlError.notFound(
                    "no connection \(id): the server keeps the last \(ConnectionHistory.capacity) connections and "
                        + "those the journal's records name; list them with GET /v1/connections")
            }
            return ControlResponse.json(connection.json)
        }
    }

    /// `POST /v1/requests/{seq}/replay`: 201 `{"record": …}`, the body (optional) editing headers and payload.
    private func replay(_ text: String, _ request: Request) async throws -> Response {
        let sequence = try Self.sequence(text, route: "POST /v1/requests/{seq}/replay")
        let edit = try ReplayEdit.parse(try await Self.bodyText(request))
        let server = self.server
        // A scripted delay holds the answer: shutdown cuts the wait short, and the record is still written.
        let task = Task { try await server.replay(sequence, edit: edit) }
        let registration = longRequests.register { task.cancel() }
        defer { longRequests.unregister(registration) }
        let record = try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        return ControlResponse.json(.object([("record", record.json)]), status: 201)
    }

    /// A `{seq}` path parameter as a sequence number, or a 400 naming `route`.
    static func sequence(_ text: String, route: String) throws -> UInt64 {
        guard let sequence = UInt64(text) else {
            throw MockAPNsControlError.badRequest(
                "'\(text)' is not a sequence number; \(route) takes a record's sequence, such as 1")
        }
        return sequence
    }
}
