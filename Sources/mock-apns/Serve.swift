import ArgumentParser
import Foundation
import Logging
import MockAPNs
import ServiceLifecycle

/// `mock-apns serve`: runs the mock until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the APNs provider API (HTTP/2 over TLS) on the embedded defaults or a scenario file.")

    @Option(
        name: .long,
        help: "Scenario file (YAML), or a shipped scenario's name (taxi-ride). Default: the embedded default world.")
    var scenario: String?

    @Option(name: .long, help: "Address to listen on. Default: the scenario's, else 127.0.0.1.")
    var host: String?

    @Option(name: [.short, .long], help: "TLS port (0 picks a free one). Default: the scenario's, else 2197.")
    var port: Int?

    @Option(name: .long, help: "Also serve cleartext HTTP/2 (prior knowledge) on this port, for local debugging.")
    var cleartextPort: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Broadcast channel management port (TLS; 0 picks a free one).",
            discussion: "Default: the scenario's listen.channelsPort, else 2195, or a free one with --port 0."))
    var channelsPort: Int?

    @Option(name: .long, help: "Server certificate chain (PEM). Default: the embedded test certificate.")
    var cert: String?

    @Option(name: .long, help: "Server private key (PEM), with --cert.")
    var key: String?

    @Option(name: .long, help: "CA file to tell clients to trust, with --cert.")
    var ca: String?

    @Option(
        name: .long,
        help: "sandbox (or development, Apple's name for it) or production. Default: the scenario's, else sandbox.")
    var environment: String?

    @Option(name: .long, help: "Append every record to this file as JSON lines.")
    var journal: String?

    @Option(name: .long, help: "Records kept in memory before the oldest are dropped (1 to 10000000). Default: 100000.")
    var journalCapacity: Int?

    @Option(
        name: .long,
        help: "Bytes of records kept in memory before the oldest are dropped (64KiB to 64GiB). Default: 256MiB.",
        transform: Serve.journalMaxBytes(_:))
    var journalMaxBytes: Int?

    @Option(
        name: .long,
        help: "Control API and inspector port (HTTP/1.1; 0: a free one). Default: 2190, or a free one with --port 0.")
    var controlPort: Int?

    @Option(name: .long, help: "Control API address. Default: 127.0.0.1 (only this machine can steer the mock).")
    var controlHost: String?

    @Option(
        name: .long,
        help: "Require 'Authorization: Bearer <token>' on the control API (all but /healthz and the inspector page).")
    var controlToken: String?

    @Flag(name: .long, help: "Do not serve the control API (and so the inspector).")
    var noControl = false

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical.", transform: logLevelArgument)
    var logLevel: Logger.Level = .info

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Close a connection whose TLS handshake and HTTP/2 preface are not done within this (10ms to 10m).",
            discussion: "Default: the scenario's limits.handshakeTimeout, else 10s.", valueName: "duration"),
        transform: durationArgument("--handshake-timeout", ConnectionLimits.handshakeTimeoutRange))
    var handshakeTimeout: Duration?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "GOAWAY IdleTimeout and close a connection that sent nothing (not even a PING) for this long (10ms to 24h).",
            discussion: "Default: the scenario's limits.idleTimeout, else 1h.", valueName: "duration"),
        transform: durationArgument("--idle-timeout", ConnectionLimits.idleTimeoutRange))
    var idleTimeout: Duration?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Connections open at once per port; more are accepted and closed at once (1 to 1000000).",
            discussion: "Default: the scenario's limits.maxConnections, else 1000.", valueName: "n"))
    var maxConnections: Int?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Once listening, print one JSON line on standard output (apnsURL, controlURL, caFile, keyFile, keyID, "
                + "teamID, pid, version, environment) and nothing else there; the banner goes to standard error.",
            discussion: "For test helpers that start the binary: read one line, parse it, never parse the banner."))
    var readyJSON = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Read and discard standard input, and shut down cleanly when it reaches end of file (the parent closed "
                + "it or died): no orphan server."))
    var exitOnStdinClose = false

    /// `--journal-max-bytes`, parsed once, as the option is read: a size such as 4096, 512KiB, 256MiB or 1GiB.
    static func journalMaxBytes(_ text: String) throws -> Int {
        switch ByteSizeText.parse(text, in: Journal.maxBytesRange) {
        case .success(let bytes): return bytes
        case .failure(let problem): throw ValidationError(problem.message)
        }
    }

    func validate() throws {
        try CommandLineSetup.validatePort(port, flag: "--port")
        try CommandLineSetup.validatePort(cleartextPort, flag: "--cleartext-port")
        try CommandLineSetup.validatePort(channelsPort, flag: "--channels-port")
        try CommandLineSetup.validatePort(controlPort, flag: "--control-port")
        if let controlToken, controlToken.isEmpty { throw ValidationError("--control-token must not be empty") }
        if (cert == nil) != (key == nil) { throw ValidationError("--cert and --key go together") }
        if let environment, APNsEnvironment(name: environment) == nil {
            throw ValidationError(
                "--environment must be sandbox (or development) or production, got '\(environment)'"
                    + NameSuggestion.hint(for: environment, among: APNsEnvironment.names))
        }
        if let journalCapacity, !Journal.capacityRange.contains(journalCapacity) {
            throw ValidationError(
                "--journal-capacity must be between 1 and \(Journal.capacityRange.upperBound), got \(journalCapacity)")
        }
        _ = try limitOverrides(ConnectionLimits())
    }

    func run() async throws {
        CommandLineSetup.bootstrapLogging(logLevel)
        let logger = Logger(label: "mock-apns")

        var loaded: Scenario
        do { loaded = try RunningMock.loadScenario(scenario) } catch { throw CLIError("\(error)") }
        if let host { loaded.listen.host = host }
        if let port { loaded.listen.port = port }
        if let cleartextPort { loaded.listen.cleartextPort = cleartextPort }
        if let channelsPort {
            loaded.listen.channelsPort = channelsPort
            loaded.listen.channelsPortIsPinned = true
        }
        if let cert, let key {
            loaded.listen.certificateFile = cert
            loaded.listen.privateKeyFile = key
            loaded.listen.caFile = ca
        }
        if let environment, let parsed = APNsEnvironment(name: environment) { loaded.world.environment = parsed }
        if let journalCapacity { loaded.journalCapacity = journalCapacity }
        if let journalMaxBytes { loaded.journalMaxBytes = journalMaxBytes }
        loaded.limits = try limitOverrides(loaded.limits)
        if let journal { try OutputFile.prepare(journal, flag: "--journal", replaced: false) }

        // The embedded test CA's file, named before the server starts: its TLS failure log names the same file.
        let embedded = loaded.listen.certificateFile == nil && loaded.listen.caFile == nil
        let testCA = embedded ? try? TestCAFile.locate() : nil
        if let testCA { loaded.listen.caFile = testCA.path }

        let mock = try await RunningMock.start(
            scenario: loaded, journalFile: journal,
            control: noControl ? nil : .init(host: controlHost ?? "127.0.0.1", port: controlPort, token: controlToken),
            logger: logger)
        StartBanner(
            server: mock.server, journalFile: journal, controlAPI: mock.controlAPI, controlToken: controlToken,
            testCAWritten: testCA?.written ?? false, stream: readyJSON ? .error : .output
        ).print()
        if readyJSON { StandardStream.output.write(mock.info.readyJSON(controlURL: mock.controlAPI?.url) + "\n") }

        var services = mock.services
        if exitOnStdinClose {
            services.append(.init(service: StandardInputWatch(), successTerminationBehavior: .gracefullyShutdownGroup))
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
    }
}

extension Serve {
    /// `limits` with the values of --handshake-timeout, --idle-timeout and --max-connections, range-checked.
    func limitOverrides(_ limits: ConnectionLimits) throws -> ConnectionLimits {
        var limits = limits
        if let handshakeTimeout { limits.handshakeTimeout = handshakeTimeout }
        if let idleTimeout { limits.idleTimeout = idleTimeout }
        if let maxConnections {
            let range = ConnectionLimits.maxConnectionsRange
            guard range.contains(maxConnections) else {
                throw ValidationError(
                    "--max-connections must be from \(range.lowerBound) to \(range.upperBound), got \(maxConnections)")
            }
            limits.maxConnections = maxConnections
        }
        return limits
    }
}

/// A failure the CLI reports in one line and exits 1 for.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
