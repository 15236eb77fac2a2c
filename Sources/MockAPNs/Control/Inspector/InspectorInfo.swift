import Foundation

/// What `GET /v1/info` answers: what the inspector is looking at, so that the page can say it (a live mock, or a
/// journal file read back by `mock-apns inspect`, read-only) and link to it; and for a live mock what a client needs
/// to talk to it (the CA to trust, the signing key), which `serve --ready-json` prints too.
public struct InspectorInfo: Sendable, Hashable {
    /// Where the records come from.
    public enum Mode: String, Sendable, Hashable {
        /// A running mock (`serve`, `run`).
        case live
        /// A journal file read back (`mock-apns inspect`).
        case file
    }

    /// Where the records come from.
    public var mode: Mode
    /// The journal file: the one a live mock appends to (`--journal`), or the one read back; `nil` for none.
    public var file: String?
    /// What the page should say before anything else: a journal file's skipped lines and limits.
    public var warnings: [String]
    /// The mock's APNs URL (`https://127.0.0.1:2197`); `nil` for a journal file.
    public var apnsURL: String?
    /// The mock's broadcast channel management URL (`https://127.0.0.1:2195`); `nil` for a journal file.
    public var channelsURL: String?
    /// Whether the routes that change something answer 409 (a journal file).
    public var readOnly: Bool
    /// Whether the mock runs under `mock-apns run` (a scenario with expectations, checked at the end).
    public var run: Bool
    /// What a client of a live mock needs; `nil` for a journal file.
    public var client: ClientDetails?

    /// What a provider (or a test helper) needs to talk to a live mock besides its URLs.
    public struct ClientDetails: Sendable, Hashable {
        /// The CA file (PEM) to trust, absolute; `nil` for a `--cert` given without `--ca`.
        public var caFile: String?
        /// The `.p8` signing key file, absolute: the scenario's first `keys` entry given with `p8:`, else the
        /// embedded test key's file; `nil` when the front end wrote none.
        public var keyFile: String?
        /// That key's Key ID.
        public var keyID: String
        /// That key's Team ID.
        public var teamID: String
        /// The APNs environment the mock started in (`sandbox` or `production`).
        public var environment: APNsEnvironment
        /// The mock's process id.
        public var pid: Int32

        /// Details with every part given.
        public init(
            caFile: String?, keyFile: String?, keyID: String, teamID: String, environment: APNsEnvironment, pid: Int32
        ) {
            self.caFile = caFile
            self.keyFile = keyFile
            self.keyID = keyID
            self.teamID = teamID
            self.environment = environment
            self.pid = pid
        }
    }

    /// Information with every part given.
    public init(
        mode: Mode, file: String?, warnings: [String], apnsURL: String?, readOnly: Bool, run: Bool,
        client: ClientDetails? = nil
    ) {
        self.mode = mode
        self.file = file
        self.warnings = warnings
        self.apnsURL = apnsURL
        self.readOnly = readOnly
        self.run = run
        self.client = client
    }

    /// A running `server`, appending to `journalFile` if any, under `mock-apns run` when `run`; `testFiles` hold the
    /// embedded test CA and key, named when the scenario gives no CA file or `.p8` key of its own.
    public static func live(
        server: MockAPNsServer, journalFile: String? = nil, run: Bool = false,
        testFiles: (caFile: String?, keyFile: String?) = (nil, nil)
    ) -> InspectorInfo {
        let absolute = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.path }
        let scenarioKey = server.scenario.signingKeyFile
        let client = ClientDetails(
            caFile: server.caPEM == nil ? nil : (server.scenario.listen.caFile ?? testFiles.caFile).map(absolute),
            keyFile: (scenarioKey?.path ?? testFiles.keyFile).map(absolute),
            keyID: scenarioKey?.keyID ?? TestCredentials.keyID, teamID: scenarioKey?.teamID ?? TestCredentials.teamID,
            environment: server.engine.world.environment, pid: ProcessInfo.processInfo.processIdentifier)
        var info = InspectorInfo(
            mode: .live, file: journalFile, warnings: [], apnsURL: server.url, readOnly: false, run: run,
            client: client)
        info.channelsURL = server.channelsURL
        return info
    }

    /// The journal file at `path`, read back with `warnings`.
    public static func file(_ path: String, warnings: [String]) -> InspectorInfo {
        InspectorInfo(mode: .file, file: path, warnings: warnings, apnsURL: nil, readOnly: true, run: false)
    }

    /// The answer of `GET /v1/info`, served at `controlURL`: `mode`, `file`, `warnings`, `version`, `apnsURL`,
    /// `channelsURL`, `controlURL`, `readOnly`, `run`, then `caFile`, `keyFile`, `keyID`, `teamID`, `pid` and
    /// `environment`, always present (`null` when empty, as the last six are for a journal file), in this order.
    func json(controlURL: String) -> JSONValue {
        .object([
            ("mode", .string(mode.rawValue)), ("file", file.map { .string($0) } ?? .null),
            ("warnings", .array(warnings.map { .string($0) })), ("version", .string(MockAPNsVersion.current)),
            ("apnsURL", apnsURL.map { .string($0) } ?? .null),
            ("channelsURL", channelsURL.map { .string($0) } ?? .null), ("controlURL", .string(controlURL)),
            ("readOnly", .bool(readOnly)), ("run", .bool(run)),
        ] + clientMembers)
    }

    /// The line `serve --ready-json` prints: `apnsURL`, `channelsURL`, `controlURL` (`null` with `--no-control`),
    /// `caFile`, `keyFile`, `keyID`, `teamID`, `pid`, `version` and `environment`, the same values as
    /// `GET /v1/info`'s.
    public func readyJSON(controlURL: String?) -> String {
        let members: [(String, JSONValue)] =
            [
                ("apnsURL", apnsURL.map { .string($0) } ?? .null), ("channelsURL", channelsURL.map { .string($0) } ?? .null),
                ("controlURL", controlURL.map { .string($0) } ?? .null),
            ]
            + clientMembers.filter { $0.0 != "environment" }
            + [("version", .string(MockAPNsVersion.current))] + clientMembers.filter { $0.0 == "environment" }
        return JSONValue.object(members).jsonText
    }

    /// `caFile`, `keyFile`, `keyID`, `teamID`, `pid`, `environment`: `null` each for a journal file.
    private var clientMembers: [(String, JSONValue)] {
        let text = { (value: String?) in value.map { JSONValue.string($0) } ?? .null }
        return [
            ("caFile", text(client?.caFile)), ("keyFile", text(client?.keyFile)), ("keyID", text(client?.keyID)),
            ("teamID", text(client?.teamID)), ("pid", client.map { .number(String($0.pid)) } ?? .null),
            ("environment", text(client?.environment.rawValue)),
        ]
    }
}
