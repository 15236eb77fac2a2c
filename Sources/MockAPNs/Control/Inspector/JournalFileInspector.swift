import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers

/// The inspector over a journal file (`mock-apns inspect FILE`): the same page and record routes as a running
/// mock's control API, read-only, over the records the file holds.
///
/// ```swift
/// let file = try JournalFileInspector.load(path: "run.jsonl")
/// let inspector = try await JournalFileInspector.start(file, port: 0)
/// print(inspector.url)      // http://127.0.0.1:<port>, the page at /
/// try await inspector.shutdown()
/// ```
public final class JournalFileInspector: Sendable {
    /// A journal file read into memory: its records as a journal keeps them, and what the page should say first.
    public struct LoadedFile: Sendable {
        /// The file.
        public var path: String
        /// Its records, numbered as the file numbers them (see `load`).
        public var journal: Journal
        /// How many records the file holds (those the journal's limits dropped included).
        public var records: Int
        /// What was skipped, renumbered or dropped, in sentences.
        public var warnings: [String]
    }

    /// The routes a journal file's inspector serves, for its "no route" answers.
    static let routes =
        "GET / (the inspector page, /push/{seq}, …), GET /assets/{name}, GET /v1/info, GET /v1/requests, "
        + "GET /v1/requests/wait, GET /v1/requests/stream, GET /v1/requests/{seq}, GET /v1/stats, "
        + "GET /v1/connections, GET /v1/connections/{id}, GET /healthz"

    /// The file shown.
    public let file: LoadedFile
    /// The address bound.
    public let host: String
    /// The port actually bound.
    public let port: Int

    private let listener: ControlListener
    private let longRequests: ControlShutdown
    private let stopped = NIOLockedValueBox(false)

    private init(file: LoadedFile, host: String, listener: ControlListener, longRequests: ControlShutdown) {
        self.file = file
        self.host = host
        self.port = listener.port
        self.listener = listener
        self.longRequests = longRequests
    }

    /// `http://host:port`, the page at `/`.
    public var url: String { MockAPNsControlAPI.url(host: host, port: port) }

    /// What `GET /v1/info` answers.
    public var info: InspectorInfo { .file(file.path, warnings: file.warnings) }

    /// Reads the journal file at `path` (`JournalFileReader`, leniently: a last line cut short and over-long lines
    /// are skipped and said in `warnings`), keeping at most `capacity` records and `maxBytes` of them in memory, as
    /// a running mock's journal does: the oldest beyond are dropped, and `warnings` says how many.
    ///
    /// Sequence numbers are kept as the file has them; where they start over (several runs appended to one
    /// `--journal` file), the later records are numbered on after the earlier ones, and `warnings` says where.
    /// Throws `JournalFileReader.Failure` for a file that cannot be read or a line that is not a record.
    public static func load(
        path: String, capacity: Int = 100_000, maxBytes: Int = Journal.defaultMaxBytes
    ) throws(JournalFileReader.Failure) -> LoadedFile {
        let journal: Journal
        do { journal = try Journal(capacity: capacity, maxBytes: maxBytes) } catch {
            throw JournalFileReader.Failure(path: path, line: nil, message: "cannot hold it: \(error)")
        }
        var reader = JournalFileReader(path: path, mode: .lenient)
        var renumbering = Renumbering()
        var count = 0
        try reader.read { record, line in
            var record = record
            guard renumbering.number(&record, line: line) else { return }
            journal.append(numbered: record)
            count += 1
        }
        var warnings = reader.warnings + renumbering.warnings
        if count == 0 { warnings.append("the file holds no records") }
        let dropped = journal.droppedCount
        if dropped > 0 {
            warnings.append(
                "the file holds \(count) records; the oldest \(dropped) are not shown: the inspector keeps at most "
                    + "\(capacity) records or \(ByteSizeText.text(maxBytes)) of them, as a mock's journal does")
        }
        return LoadedFile(path: path, journal: journal, records: count, warnings: warnings)
    }

    /// Serves `file` on `host` and `port` (0 picks a free one): the page, `GET /v1/info` (mode `file`, read-only),
    /// the record routes, the stats and connections its records show, and `/healthz`; every `/v1` call that changes
    /// something answers 409, and a `/v1` route of a running mock (scenario, rules, clock, activities, phones)
    /// answers 404 saying why. With `token`, the `/v1` routes
    /// need `Authorization: Bearer <token>`. Throws a `ListenFailure` (role `inspector`) when it cannot listen.
    public static func start(
        _ file: LoadedFile, host: String = "127.0.0.1", port: Int = ControlRoutes.defaultPort, token: String? = nil,
        logger: Logger = Logger(label: "mock-apns.inspect")
    ) async throws -> JournalFileInspector {
        let longRequests = ControlShutdown()
        let boundPort = NIOLockedValueBox(port)
        let router = Router()
        router.add(middleware: CrossSiteGuard(host: host) { boundPort.withLockedValue { $0 } })
        router.add(middleware: ReadOnlyGuard(file: file.path))
        router.add(middleware: ControlErrorMiddleware(token: token, routes: routes))
        RecordRoutes(journal: file.journal, now: { Date() }, longRequests: longRequests).register(on: router)
        InspectorRoutes(info: .file(file.path, warnings: file.warnings)) {
            MockAPNsControlAPI.url(host: host, port: boundPort.withLockedValue { $0 })
        }.register(on: router)
        router.get("/healthz") { _, _ in ControlResponse.json(["status": "ok"]) }
        // The counts and connections the records show (no connection was open, and none is in a history).
        let journal = file.journal
        router.get("/v1/stats") { _, _ in ControlResponse.json(journal.metrics.stats(of: journal).json) }
        ConnectionRoutes(
            all: { ConnectionSummary.all(records: journal.records(), history: []) },
            one: { id in
                ConnectionSummary.all(records: journal.records().filter { $0.connectionID == id }, history: []).first
            }
        ).register(on: router)
        router.get("/v1/**") { request, _ -> Response in
            throw MockAPNsControlError.notFound(
                "GET \(request.uri.path) is not in a journal file: mock-apns inspect serves the records of "
                    + "\(file.path); the scenario, rules, clock, activities and phones belong to the running mock "
                    + "that wrote it. The routes here: \(routes)")
        }
        let listener = try await ControlListener.start(
            router: router, host: host, port: port, boundPort: boundPort, role: .inspector, logger: logger)
        return JournalFileInspector(file: file, host: host, listener: listener, longRequests: longRequests)
    }

    /// Ends open streams and waits, stops accepting, and lets the requests in flight finish.
    public func shutdown() async throws {
        let alreadyStopped = stopped.withLockedValue { value in
            defer { value = true }
            return value
        }
        guard !alreadyStopped else { return }
        longRequests.stopAll()
        try await listener.shutdown()
    }

    /// Numbers the records of a file whose sequence numbers may start over (several runs appended to one file):
    /// each record keeps its number while the numbers grow, and is numbered on after the last one where they do
    /// not. Never traps, whatever numbers the file holds.
    struct Renumbering {
        private var last: UInt64 = 0
        private var offset: UInt64 = 0
        private var restarts = 0
        private var firstRestart: (line: Int, from: UInt64, to: UInt64)?
        private var unnumbered = 0

        /// Gives `record` its number here; `false` when no number is left (the file reached the largest one).
        mutating func number(_ record: inout JournalRecord, line: Int) -> Bool {
            var sequence = record.sequence &+ offset
            if sequence <= last || (offset > 0 && sequence < offset) {
                guard last < UInt64.max - 1 else {
                    unnumbered += 1
                    return false
                }
                restarts += 1
                if firstRestart == nil { firstRestart = (line, record.sequence, last + 1) }
                offset = (last + 1) &- record.sequence
                sequence = last + 1
            }
            guard sequence < UInt64.max else {
                unnumbered += 1
                return false
            }
            record.sequence = sequence
            last = sequence
            return true
        }

        /// What was renumbered or left out, in sentences.
        var warnings: [String] {
            var warnings: [String] = []
            if let first = firstRestart {
                warnings.append(
                    "sequence numbers start over at line \(first.line) (\(restarts) time(s) in all: several runs "
                        + "appended to one file?); the records from there on are numbered on from the earlier ones: "
                        + "#\(first.from) of line \(first.line) is #\(first.to) here")
            }
            if unnumbered > 0 {
                warnings.append("\(unnumbered) record(s) left out: their sequence numbers run past the largest one")
            }
            return warnings
        }
    }
}
