import AsyncHTTPClient
import Foundation
import MockAPNs
import NIOCore
import NIOHTTP1

/// The control operations over HTTP: talks to the control API of a mock-apns running elsewhere.
///
/// The second implementation of `MockAPNsControl` (the server itself is the first), so a test written against
/// the protocol runs unchanged against `mock-apns serve` in another process or container:
///
/// ```swift
/// let control = MockAPNsControlClient(url: "http://127.0.0.1:2190")
/// try await control.reset()
/// // ... run the provider ...
/// let result = try await control.waitForRecords(JournalQuery(token: token), count: 1, timeout: .seconds(5))
/// ```
///
/// Refusals come back as the same errors the server throws in-process: `MockAPNsControlError` with the HTTP
/// status and message, and `ScenarioError` with line, column and field for documents that do not load.
public struct MockAPNsControlClient: MockAPNsControl {
    /// The control API's base URL, such as `http://127.0.0.1:2190`.
    public let url: String
    /// The bearer token sent with every request, if the server was started with `--control-token`.
    public let token: String?
    /// The HTTP client used; `defaultHTTPClient` unless one was given.
    public let httpClient: HTTPClient
    /// How long an ordinary call may take.
    public var requestTimeout: Duration = .seconds(10)

    /// The HTTP client shared by clients given none: fails at once when nothing listens at the URL.
    ///
    /// AsyncHTTPClient's shared client retries a refused connection until the request's deadline; for a control
    /// API that is either running on this machine or not, "is the server running?" should come in milliseconds.
    /// Lives as long as the process, like `HTTPClient.shared`.
    public static let defaultHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(5)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// A client for the control API at `url`.
    public init(url: String, token: String? = nil, httpClient: HTTPClient = MockAPNsControlClient.defaultHTTPClient) {
        self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.token = token
        self.httpClient = httpClient
    }

    /// The journal records that match `query`, oldest first.
    public func records(_ query: JournalQuery) async throws -> [JournalRecord] {
        let json = try await call("GET", "/v1/requests", query: query.parameters)
        return try Self.decodeList(json["records"], "record list", element: "record")
    }

    /// The record with sequence number `sequence`, or `nil`.
    public func record(sequence: UInt64) async throws -> JournalRecord? {
        do {
            return try Self.decode(try await call("GET", "/v1/requests/\(sequence)"), "record")
        } catch let error as MockAPNsControlError where error.status == 404 {
            return nil
        }
    }

    /// Waits until `count` records match `query` or `timeout` passes.
    public func waitForRecords(_ query: JournalQuery, count: Int, timeout: Duration) async throws
        -> RecordWaitResult
    {
        let parameters = query.parameters + [("count", String(count)), ("timeout", ControlDuration.text(timeout))]
        let json = try await call(
            "GET", "/v1/requests/wait", query: parameters, timeout: timeout + requestTimeout, accepting: [408])
        return try Self.decode(json, "wait result")
    }

    /// Forgets every journal record.
    public func clearRecords() async throws {
        _ = try await call("DELETE", "/v1/requests")
    }

    /// Clears the journal and restores the world and rules of `target` (`POST /v1/reset?to=`).
    public func reset(to target: ResetTarget) async throws {
        _ = try await call("POST", "/v1/reset", query: [("to", target.rawValue)])
    }

    /// The running scenario as a scenario document.
    public func scenario() async throws -> ScenarioSnapshot {
        Self.snapshot(try await call("GET", "/v1/scenario"))
    }

    /// Loads the scenario in `yaml`; an invalid one throws `ScenarioError` and changes nothing.
    ///
    /// Relative paths in it start from the server's default folder (see `MockAPNsServer.scenarioBaseDirectory`).
    public func loadScenario(yaml: String) async throws -> ScenarioSnapshot {
        Self.snapshot(try await call("PUT", "/v1/scenario", body: yaml))
    }

    /// Loads the scenario in `yaml` with relative paths in it taken from `base`, a folder on the server's machine.
    public func loadScenario(yaml: String, base: String) async throws -> ScenarioSnapshot {
        Self.snapshot(try await call("PUT", "/v1/scenario", query: [("base", base)], body: yaml))
    }

    /// Adds devices, or replaces those with the same token.
    public func addDevices(_ devices: [Device]) async throws {
        _ = try await call("POST", "/v1/devices", body: JSONValue.array(devices.map(\.scenarioJSON)).jsonText)
    }

    /// Marks `token` unregistered from now on (410 Unregistered).
    public func unregisterDevice(token: String) async throws -> Device {
        let json = try await call("POST", "/v1/devices/\(Self.pathComponent(token))/unregister")
        guard let device = try? ScenarioLoader.parseDevices(yaml: json.jsonText).first else {
            throw Self.unreadable("device")
        }
        return device
    }

    /// Removes `token` from the world.
    public func removeDevice(token: String) async throws {
        _ = try await call("DELETE", "/v1/devices/\(Self.pathComponent(token))")
    }

    /// Adds scripted rules after the existing ones.
    public func addRules(_ rules: [ScriptedRule]) async throws {
        _ = try await call("POST", "/v1/rules", body: JSONValue.array(rules.map(\.scenarioJSON)).jsonText)
    }

    /// Adds rules written as in a scenario's `rules:` list (YAML or JSON), checked by the server.
    public func addRules(yaml: String) async throws {
        _ = try await call("POST", "/v1/rules", body: yaml)
    }

    /// Removes every scripted rule.
    public func clearRules() async throws {
        _ = try await call("DELETE", "/v1/rules")
    }

    /// The scripted rules with their counters (`GET /v1/rules`), each rule read back as the server loads it.
    public func ruleCounts() async throws -> [ScriptedRuleCount] {
        let entries = try await call("GET", "/v1/rules")["rules"]?.arrayValue ?? []
        let rules = try ScenarioLoader.parseRules(yaml: JSONValue.array(entries.map { $0["rule"] ?? .null }).jsonText)
        return zip(rules, entries).map { rule, entry in
            ScriptedRuleCount(
                rule: rule, matched: entry["matched"]?.unsignedValue.map { Int($0) } ?? 0,
                applied: entry["applied"]?.unsignedValue.map { Int($0) } ?? 0)
        }
    }

    /// Counts over the journal and the server's totals.
    public func stats() async throws -> MockAPNsStats {
        MockAPNsStats(json: try await call("GET", "/v1/stats"))
    }

    /// The scenario's expectations and checks against the journal as it is now (`POST /v1/verify`).
    public func verify() async throws -> VerifyReport {
        try Self.decode(try await call("POST", "/v1/verify"), "verify report")
    }

    /// Whether the control API answers `/healthz`.
    public func isHealthy() async -> Bool {
        (try? await call("GET", "/healthz"))?["status"]?.stringValue == "ok"
    }

    private static func snapshot(_ json: JSONValue) -> ScenarioSnapshot {
        ScenarioSnapshot(name: json["name"]?.stringValue ?? "scenario", document: json)
    }

    /// `json` read as a `T`; the error of an answer this client cannot read (`what`) when it is not one.
    static func decode<T: JSONMapped>(_ json: JSONValue?, _ what: String) throws -> T {
        guard let json, let value = T(json: json) else { throw unreadable(what) }
        return value
    }

    /// `json`, an array (`what`), read as `T`s (each an `element`); unreadable when one of them is not.
    static func decodeList<T: JSONMapped>(_ json: JSONValue?, _ what: String, element: String) throws -> [T] {
        guard let elements = json?.arrayValue else { throw unreadable(what) }
        return try elements.map { try decode($0, element) }
    }

    static func unreadable(_ what: String) -> MockAPNsControlError {
        MockAPNsControlError(
            status: 502,
            "the control API answered a \(what) this client cannot read; are client and server the same version?")
    }

    static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? text
    }
}
