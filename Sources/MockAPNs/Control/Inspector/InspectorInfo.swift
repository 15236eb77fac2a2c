/// What `GET /v1/info` answers: what the inspector is looking at, so that the page can say it (a live mock, or a
/// journal file read back by `mock-apns inspect`, read-only) and link to it.
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

    /// Information with every part given.
    public init(mode: Mode, file: String?, warnings: [String], apnsURL: String?, readOnly: Bool, run: Bool) {
        self.mode = mode
        self.file = file
        self.warnings = warnings
        self.apnsURL = apnsURL
        self.readOnly = readOnly
        self.run = run
    }

    /// A running `server`, appending to `journalFile` if any, under `mock-apns run` when `run`.
    public static func live(server: MockAPNsServer, journalFile: String? = nil, run: Bool = false) -> InspectorInfo {
        var info = InspectorInfo(
            mode: .live, file: journalFile, warnings: [], apnsURL: server.url, readOnly: false, run: run)
        info.channelsURL = server.channelsURL
        return info
    }

    /// The journal file at `path`, read back with `warnings`.
    public static func file(_ path: String, warnings: [String]) -> InspectorInfo {
        InspectorInfo(mode: .file, file: path, warnings: warnings, apnsURL: nil, readOnly: true, run: false)
    }

    /// The answer of `GET /v1/info`, served at `controlURL`: `mode`, `file`, `warnings`, `version`, `apnsURL`,
    /// `channelsURL`, `controlURL`, `readOnly`, `run`, always present (`null` when empty), in this order.
    func json(controlURL: String) -> JSONValue {
        .object([
            ("mode", .string(mode.rawValue)), ("file", file.map { .string($0) } ?? .null),
            ("warnings", .array(warnings.map { .string($0) })), ("version", .string(MockAPNsVersion.current)),
            ("apnsURL", apnsURL.map { .string($0) } ?? .null),
            ("channelsURL", channelsURL.map { .string($0) } ?? .null), ("controlURL", .string(controlURL)),
            ("readOnly", .bool(readOnly)), ("run", .bool(run)),
        ])
    }
}
