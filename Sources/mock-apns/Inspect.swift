import ArgumentParser
import Foundation
import Logging
import MockAPNs
import ServiceLifecycle

/// `mock-apns inspect JOURNAL.jsonl`: the inspector over a saved journal (a CI artifact), read-only.
struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a journal file (serve --journal, run --journal) in the inspector, read-only.",
        discussion: """
            Serves the inspector page and the record routes of the control API over the file's records until \
            Ctrl-C; open the URL on the first line. Calls that would change something answer 409. A last line cut \
            short (a run killed while writing it) is skipped, and the page and standard error say so. At most \
            --journal-capacity records (and 256MiB of them) are kept in memory: the oldest beyond are not shown, \
            and the page says how many.

            Exit status: 0 stopped by Ctrl-C or SIGTERM; 1 it cannot listen; 2 a usage error, or a file that cannot \
            be read or is not a journal (naming file:line).
            """)

    @Argument(help: "The journal: JSON lines, one record each, as serve --journal and run --journal write them.")
    var journal: String

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "Port (0 picks a free one).",
            discussion: "Default: 2190, the control API's; when it is taken (a mock-apns serve is running), a free "
                + "port, said on standard error. A --port that is taken is an error.",
            valueName: "port"))
    var port: Int?

    @Option(
        name: .long,
        help: "Address to listen on. Default: 127.0.0.1 (this machine only: a journal holds device tokens and JWTs).")
    var host: String?

    @Option(name: .long, help: "Require 'Authorization: Bearer <token>' on the /v1 routes (the page asks for it).")
    var controlToken: String?

    @Option(name: .long, help: "Records kept in memory (1 to 10000000). Default: 100000.")
    var journalCapacity: Int?

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical.", transform: logLevelArgument)
    var logLevel: Logger.Level = .warning

    func validate() throws {
        try CommandLineSetup.validatePort(port, flag: "--port")
        if let controlToken, controlToken.isEmpty { throw ValidationError("--control-token must not be empty") }
        if let journalCapacity, !Journal.capacityRange.contains(journalCapacity) {
            throw ValidationError(
                "--journal-capacity must be between 1 and \(Journal.capacityRange.upperBound), got \(journalCapacity)")
        }
    }

    func run() async throws {
        CommandLineSetup.bootstrapLogging(logLevel)
        let logger = Logger(label: "mock-apns")
        let file: JournalFileInspector.LoadedFile
        do { file = try JournalFileInspector.load(path: journal, capacity: journalCapacity ?? 100_000) } catch {
            StandardStream.error.write("Error: \(error)\n")
            throw ExitCode(MockAPNsCommand.usageExitCode)
        }
        for warning in file.warnings { warn("\(journal): \(warning)") }
        let inspector = try await start(file, logger: logger)
        let holdings = file.journal.holdings
        let range = holdings.oldest.map { oldest in " (#\(oldest) to #\(holdings.newest ?? oldest))" } ?? ""
        let guarded = controlToken == nil ? "" : "  (the page asks for the control token)"
        StandardStream.output.write(
            """
            inspector: \(inspector.url)/\(guarded)
            mock-apns inspect: \(journal), \(holdings.held) record(s)\(range), read-only; Ctrl-C to stop
            ready

            """)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: InspectorService(inspector: inspector))],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// Listens on `--port`, else on 2190, else (taken) on a free port; a `CLIError` when it cannot listen.
    private func start(_ file: JournalFileInspector.LoadedFile, logger: Logger) async throws -> JournalFileInspector {
        let wanted = port ?? ControlRoutes.defaultPort
        let host = self.host ?? "127.0.0.1"
        do {
            return try await JournalFileInspector.start(
                file, host: host, port: wanted, token: controlToken, logger: logger)
        } catch let failure as ListenFailure where port == nil && failure.cause == .portInUse {
            warn("port \(wanted) is taken (a mock-apns serve?): the inspector listens on a free port instead")
            do {
                return try await JournalFileInspector.start(
                    file, host: host, port: 0, token: controlToken, logger: logger)
            } catch let failure as ListenFailure {
                throw CLIError(failure.commandLineMessage)
            }
        } catch let failure as ListenFailure {
            throw CLIError(failure.commandLineMessage)
        }
    }

    /// Stops the inspector on graceful shutdown (SIGINT, SIGTERM).
    private struct InspectorService: Service {
        let inspector: JournalFileInspector

        func run() async throws {
            try? await gracefulShutdown()
            try await inspector.shutdown()
        }
    }
}
