import Hummingbird

extension ControlHandlers {
    /// Adds the Live Activity routes (issue 12, "The app's side") to `router`.
    func registerActivities(on router: Router<BasicRequestContext>) {
        router.get("/v1/activities") { request, _ in try await self.listActivities(request) }
        router.get("/v1/activities/wait") { request, _ in try await self.waitForActivity(request) }
        router.get("/v1/activities/stream") { request, _ in try self.streamActivities(request) }
        router.get("/v1/activities/{id}") { _, context in
            try await self.activity(context.parameters.get("id") ?? "")
        }
        router.post("/v1/activities") { request, _ in try await self.startActivity(request) }
        router.post("/v1/activities/{id}/rotate-token") { _, context in
            ControlResponse.json(try await self.server.rotateActivityToken(id: context.parameters.get("id") ?? "").json)
        }
        router.post("/v1/activities/{id}/dismiss") { _, context in
            ControlResponse.json(try await self.server.dismissActivity(id: context.parameters.get("id") ?? "").json)
        }
    }

    /// `GET /v1/activities`: `{"count", "activities"}`, filtered by `state`, `type` and `token`.
    private func listActivities(_ request: Request) async throws -> Response {
        let (query, _) = try ActivityQuery.parse(Self.parameters(request))
        let activities = try await server.activities(query)
        return ControlResponse.json(
            .object([
                ("count", .number(String(activities.count))), ("activities", .array(activities.map(\.json))),
            ]))
    }

    /// `GET /v1/activities/{id}`: the activity (`id` may be a unique prefix), or 404 with the reason.
    private func activity(_ id: String) async throws -> Response {
        guard let activity = try await server.activity(id: id) else { throw InProcessControl.unknownActivity(id) }
        return ControlResponse.json(activity.json)
    }

    /// `GET /v1/activities/wait`: the first activity that matches (200), or 408 after `timeout` (default 5s).
    private func waitForActivity(_ request: Request) async throws -> Response {
        let (query, extra) = try ActivityQuery.parse(Self.parameters(request), extra: ["timeout"])
        let timeout = try ControlDuration.parse(extra["timeout"] ?? "5s")
        let server = self.server
        let task = Task { try await server.waitForActivity(query, timeout: timeout) }
        let registration = longRequests.register { task.cancel() }
        defer { longRequests.unregister(registration) }
        let found = try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        guard let found else {
            return ControlResponse.error(
                "no activity matched \(query.summary) within \(ControlDuration.text(timeout))", status: 408,
                extra: [("query", .object(query.parameters.map { ($0.name, .string($0.value)) }))])
        }
        return ControlResponse.json(found.json)
    }

    /// `POST /v1/activities`: a local start; 201 with the activity.
    private func startActivity(_ request: Request) async throws -> Response {
        let start = try ActivityStart(body: try await Self.bodyText(request))
        return ControlResponse.json(try await server.startActivity(start).json, status: 201)
    }
}
