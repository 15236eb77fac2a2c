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
        let server = self.server
        ConnectionRoutes(all: { try await server.connections() }, one: { try await server.connection(id: $0) })
            .register(on: router)
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
        // As GET /v1/requests/{seq} answers it (with `events` for a push that reached a phone).
        return ControlResponse.json(
            .object([("record", RecordRoutes.withEvents(record, journal: server.journal))]), status: 201)
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
