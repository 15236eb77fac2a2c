import Foundation
import Hummingbird
import NIOCore

/// The control API's route handlers: each reads its input, calls the in-process operation, and answers JSON.
struct ControlHandlers: Sendable {
    /// The largest body accepted (scenarios, rules, devices).
    static let maximumBodySize = 1 << 20

    let server: MockAPNsServer
    let longRequests: ControlShutdown
    let requestMetrics: RequestMetrics

    /// Adds every route to `router`.
    func register(on router: Router<BasicRequestContext>) {
        router.get("/v1/requests") { request, _ in try await self.list(request) }
        router.get("/v1/requests/wait") { request, _ in try await self.wait(request) }
        router.get("/v1/requests/stream") { request, _ in try self.stream(request) }
        router.get("/v1/requests/{seq}") { _, context in try await self.record(context.parameters.get("seq") ?? "") }
        router.delete("/v1/requests") { _, _ in try await self.clear() }
        router.post("/v1/reset") { _, _ in try await self.reset() }
        router.get("/v1/scenario") { _, _ in ControlResponse.json(try await self.server.scenario().document) }
        router.put("/v1/scenario") { request, _ in try await self.loadScenario(request) }
        router.post("/v1/devices") { request, _ in try await self.addDevices(request) }
        router.post("/v1/devices/{token}/unregister") { _, context in
            try await self.unregister(context.parameters.get("token") ?? "")
        }
        router.delete("/v1/devices/{token}") { _, context in
            try await self.remove(context.parameters.get("token") ?? "")
        }
        router.post("/v1/rules") { request, _ in try await self.addRules(request) }
        router.delete("/v1/rules") { _, _ in try await self.clearRules() }
        router.get("/v1/clock") { _, _ in ControlResponse.json(try await self.server.clock().json) }
        router.post("/v1/clock") { request, _ in try await self.moveClock(request) }
        registerActivities(on: router)
        registerPhones(on: router)
        router.get("/v1/stats") { _, _ in ControlResponse.json(try await self.server.stats().json) }
        router.post("/v1/verify") { _, _ in ControlResponse.json(try await self.server.verify().json) }
        router.get("/metrics") { _, _ in self.metrics() }
        router.get("/healthz") { _, _ in ControlResponse.json(["status": "ok"]) }
    }

    /// The decoded query parameters, in order.
    ///
    /// A `+` in the search text `q` is a space, as in a form (what `curl --data-urlencode`, Python's `requests`
    /// and browsers send); Hummingbird keeps it a `+`, and the other filters keep that (an ISO time's `+01:00`).
    static func parameters(_ request: Request) -> [(name: String, value: String)] {
        request.uri.queryParameters.map { name, value in
            guard name == "q" else { return (String(name), String(value)) }
            let raw = request.uri.query?.split(separator: "&").first { $0.hasPrefix("q=") }?.dropFirst(2)
            let search = raw.flatMap { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            return (String(name), search ?? String(value))
        }
    }

    /// The body as text, at most `maximumBodySize` bytes.
    static func bodyText(_ request: Request) async throws -> String {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodySize)
        } catch is NIOTooManyBytesError {
            throw MockAPNsControlError(status: 413, "the body is larger than \(maximumBodySize) bytes")
        }
        return String(buffer: buffer)
    }

    private func list(_ request: Request) async throws -> Response {
        let (query, _) = try JournalQuery.parse(Self.parameters(request))
        let records = try await server.records(query)
        return ControlResponse.json(
            .object([("count", .number(String(records.count))), ("records", .array(records.map(\.json)))]))
    }

    private func record(_ text: String) async throws -> Response {
        guard let sequence = UInt64(text) else {
            throw MockAPNsControlError.badRequest(
                "'\(text)' is not a sequence number; GET /v1/requests/{seq} takes a record's sequence, such as 1")
        }
        guard let record = try await server.record(sequence: sequence) else {
            let stats = try await server.stats()
            throw MockAPNsControlError.notFound(
                "no record #\(sequence): the journal holds \(stats.records) record(s) of \(stats.total) recorded "
                    + "(cleared or dropped records are gone); list them with GET /v1/requests")
        }
        return ControlResponse.json(record.json)
    }

    private func wait(_ request: Request) async throws -> Response {
        let (query, extra) = try JournalQuery.parse(Self.parameters(request), extra: ["count", "timeout"])
        var count = 1
        if let text = extra["count"] {
            guard let value = Int(text), (1...100_000).contains(value) else {
                throw MockAPNsControlError.badRequest("count must be a whole number from 1 to 100000, got '\(text)'")
            }
            count = value
        }
        let timeout = try ControlDuration.parse(extra["timeout"] ?? "5s")
        let server = self.server
        let task = Task { try await server.waitForRecords(query, count: count, timeout: timeout) }
        let registration = longRequests.register { task.cancel() }
        defer { longRequests.unregister(registration) }
        let result = try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        return ControlResponse.json(result.json(query: query, timeout: timeout), status: result.satisfied ? 200 : 408)
    }

    private func clear() async throws -> Response {
        let before = try await server.stats().records
        try await server.clearRecords()
        return ControlResponse.json(["cleared": .number(String(before))])
    }

    private func reset() async throws -> Response {
        try await server.reset()
        return ControlResponse.json(["reset": true, "scenario": .string(server.currentScenario.name)])
    }

    private func loadScenario(_ request: Request) async throws -> Response {
        let text = try await Self.bodyText(request)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw MockAPNsControlError.badRequest(
                "the body is empty; send a scenario document (YAML or JSON), for example {\"mode\": \"strict\"}")
        }
        let base = try Self.scenarioBase(Self.parameters(request), default: server.scenarioBaseDirectory)
        return ControlResponse.json(try await Self.withBaseHint(base) {
            try await server.loadScenario(yaml: text, baseDirectory: base)
        }.document)
    }

    private func addDevices(_ request: Request) async throws -> Response {
        let devices = try ScenarioLoader.parseDevices(
            yaml: try await Self.bodyText(request), now: server.engine.clock.now())
        try await server.addDevices(devices)
        return ControlResponse.json(["devices": .array(devices.map(\.scenarioJSON))], status: 201)
    }

    private func unregister(_ token: String) async throws -> Response {
        ControlResponse.json(try await server.unregisterDevice(token: token).scenarioJSON)
    }

    private func remove(_ token: String) async throws -> Response {
        try await server.removeDevice(token: token)
        return ControlResponse.json(["removed": .string(token.lowercased())])
    }

    private func addRules(_ request: Request) async throws -> Response {
        let rules = try ScenarioLoader.parseRules(
            yaml: try await Self.bodyText(request), now: server.engine.clock.now())
        try await server.addRules(rules)
        return ControlResponse.json(["rules": .array(server.engine.rules.rules.map(\.scenarioJSON))], status: 201)
    }

    private func clearRules() async throws -> Response {
        let count = server.engine.rules.rules.count
        try await server.clearRules()
        return ControlResponse.json(["removed": .number(String(count))])
    }

    private func metrics() -> Response {
        ControlResponse.text(
            requestMetrics.prometheusText(journal: server.journal, connections: server.metrics),
            contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
