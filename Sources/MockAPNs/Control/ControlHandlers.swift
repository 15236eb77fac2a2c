import Foundation
import Hummingbird
import NIOCore

/// The control API's route handlers: each reads its input, calls the in-process operation, and answers JSON.
struct ControlHandlers: Sendable {
    /// The largest body accepted (scenarios, rules, devices).
    static let maximumBodySize = 1 << 20

    let server: MockAPNsServer
    let longRequests: ControlShutdown

    /// The record routes, over the server's journal on the mock's clock.
    var records: RecordRoutes {
        let clock = server.engine.clock
        return RecordRoutes(journal: server.journal, now: { clock.now() }, longRequests: longRequests)
    }

    /// Adds every route to `router`.
    func register(on router: Router<BasicRequestContext>) {
        records.register(on: router)
        router.delete("/v1/requests") { _, _ in try await self.clear() }
        router.post("/v1/reset") { request, _ in try await self.reset(Self.parameters(request)) }
        router.get("/v1/scenario") { _, _ in ControlResponse.json(try await self.server.scenario().document) }
        router.put("/v1/scenario") { request, _ in try await self.loadScenario(request) }
        router.post("/v1/devices") { request, _ in try await self.addDevices(request) }
        router.post("/v1/devices/{token}/unregister") { _, context in
            try await self.unregister(context.parameters.get("token") ?? "")
        }
        router.delete("/v1/devices/{token}") { _, context in
            try await self.remove(context.parameters.get("token") ?? "")
        }
        router.get("/v1/rules") { _, _ in
            ControlResponse.json(["rules": .array(try await self.server.ruleCounts().map(\.json))])
        }
        router.post("/v1/rules") { request, _ in try await self.addRules(request) }
        router.delete("/v1/rules") { _, _ in try await self.clearRules() }
        router.get("/v1/clock") { _, _ in ControlResponse.json(try await self.server.clock().json) }
        router.post("/v1/clock") { request, _ in try await self.moveClock(request) }
        registerActivities(on: router)
        registerReplay(on: router)
        registerPhones(on: router)
        registerChannels(on: router)
        router.get("/v1/stats") { _, _ in ControlResponse.json(try await self.server.stats().json) }
        router.post("/v1/verify") { _, _ in ControlResponse.json(try await self.server.verify().json) }
        router.get("/metrics") { _, _ in self.metrics() }
        router.get("/healthz") { _, _ in ControlResponse.json(["status": "ok"]) }
    }

    /// The decoded query parameters, in order.
    ///
    /// The path parameter `name` as the client meant it: Hummingbird leaves it percent-encoded, so `%20` is
    /// decoded to a space here (and then refused where a space is, as if typed), and a base64 channel id's `%2B`
    /// to `+`.
    static func pathParameter(_ name: String, of context: BasicRequestContext) -> String {
        let segment = context.parameters.get(name) ?? ""
        return segment.removingPercentEncoding ?? segment
    }

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

    private func clear() async throws -> Response {
        let before = try await server.stats().records
        try await server.clearRecords()
        return ControlResponse.json(["cleared": .number(String(before))])
    }

    /// `POST /v1/reset`, `?to=started` (the default) or `?to=loaded`; any other parameter is a 400.
    private func reset(_ parameters: [(name: String, value: String)]) async throws -> Response {
        var target = ResetTarget.started
        for (name, value) in parameters {
            guard name == "to" else {
                throw MockAPNsControlError.badRequest(
                    "POST /v1/reset takes only 'to' (started or loaded), got '\(name)'")
            }
            target = try ResetTarget.parse(value)
        }
        try await server.reset(to: target)
        return ControlResponse.json([
            "reset": true, "scenario": .string(server.currentScenario.name), "to": .string(target.rawValue),
        ])
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
            server.metrics.prometheusText(journal: server.journal),
            contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
