import ArgumentParser
import Foundation
import Logging
import MockAPNs

/// `mock-apns run SCENARIO -- COMMAND`: plays a scenario against a provider and fails with a readable reason.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a scenario on free ports, run COMMAND against it, then check the scenario's expectations.",
        discussion: """
            COMMAND runs directly (no shell; write sh -c '…' for one) with MOCK_APNS_URL, MOCK_APNS_HOST, \
            MOCK_APNS_PORT, MOCK_APNS_CA_FILE, MOCK_APNS_CONTROL_URL, MOCK_APNS_KEY_FILE, MOCK_APNS_KEY_ID, \
            MOCK_APNS_TEAM_ID and (for a scenario with one app) MOCK_APNS_BUNDLE_ID added to its environment. \
            Without COMMAND it serves until Ctrl-C, then checks.

            Exit status: 0 everything passed and COMMAND exited 0; 1 an expectation or check failed; 2 a usage \
            or scenario error; 3 COMMAND failed (non-zero, killed, or past --timeout) while the rest passed.
            """)

    /// The range of `--settle`.
    static let settleRange = Duration.zero...Duration.seconds(60)
    /// The range of `--timeout`.
    static let timeoutRange = Duration.seconds(1)...Duration.seconds(7 * 24 * 3600)
    /// At most this many times `--settle` is spent waiting for a journal that keeps receiving requests.
    static let settleCap = 10

    @Argument(
        help: "Scenario file (YAML) or a shipped scenario's name (taxi-ride). Default: the embedded default world.")
    var scenario: String?

    @Argument(parsing: .postTerminator, help: "The provider to run, after --.")
    var command: [String] = []

    @Option(
        name: [.short, .long], help: "APNs (TLS) port. Default: the scenario's listen.port if it sets one, else free.")
    var port: Int?

    @Option(name: .long, help: "Control API port. Default: a free one.")
    var controlPort: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "After COMMAND exits, wait until no request has been recorded for this long (0ms to 60s).",
            discussion: "Default: 250ms.", valueName: "duration"),
        transform: durationArgument("--settle", Run.settleRange))
    var settle: Duration = .milliseconds(250)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Stop COMMAND (SIGTERM, SIGKILL 5s later) when it runs longer than this (1s to 7d).",
            discussion: "Default: 10m.", valueName: "duration"),
        transform: durationArgument("--timeout", Run.timeoutRange))
    var timeout: Duration = .seconds(600)

    @Option(name: .long, help: "Write the run's journal to this file as JSON lines (replaced if it exists).")
    var journal: String?

    @Option(name: .long, help: "Write the scenario with an expect: block listing what COMMAND sent to this file.")
    var record: String?

    @Option(
        name: .long, help: "trace, debug, info, notice, warning, error or critical. Default: warning.",
        transform: logLevelArgument)
    var logLevel: Logger.Level = .warning

    @OptionGroup var outputs: RunVerdictOutputOptions

    func validate() throws {
        try CommandLineSetup.validatePort(port, flag: "--port")
        try CommandLineSetup.validatePort(controlPort, flag: "--control-port")
        if let first = command.first, first.isEmpty { throw ValidationError("COMMAND after -- must not be empty") }
    }

    func run() async throws {
        CommandLineSetup.bootstrapLogging(logLevel)
        let loaded = try await Self.orExit2 { try prepareScenario() }
        if !command.isEmpty {
            _ = try await Self.orExit2 {
                try RunChild.executable(command[0], path: ProcessInfo.processInfo.environment["PATH"])
            }
        }
        try await Self.orExit2 { try prepareOutputs() }
        let mock = try await Self.orExit2 {
            try await RunningMock.start(
                scenario: loaded, journalFile: journal, control: .init(host: "127.0.0.1", port: controlPort ?? 0),
                underRun: true, logger: Logger(label: "mock-apns"))
        }
        let environment: RunEnvironment
        do { environment = try RunEnvironment(mock: mock) } catch {
            await mock.stop()
            throw Self.exit2("\(error)")
        }
        defer { environment.removeFiles() }
        let verdict = await play(mock: mock, environment: environment)
        await mock.stop()
        var written = outputs.write(verdict)
        if let record {
            do { try RunRecorder(scenario: loaded, records: mock.server.journal.records()).write(to: record) } catch {
                warn(error.description)
                written = false
            }
        }
        let status = verdict.exitStatus(outputsWritten: written)
        if status != 0 { throw ExitCode(status) }
    }

    /// The scenario with `--port` (else a free port unless the scenario pins one); a usage error for `--record`
    /// with a scenario that already has `expect:`.
    private func prepareScenario() throws -> Scenario {
        var loaded = try RunningMock.loadScenario(scenario)
        if let port {
            loaded.listen.port = port
        } else if !loaded.listen.portIsPinned {
            loaded.listen.port = 0
        }
        if record != nil, !loaded.expectations.isEmpty || RunRecorder.hasExpectBlock(sourcePath: loaded.sourcePath) {
            throw CLIError(
                "--record writes an expect: block, and \(scenario ?? "the scenario") already has one: remove it "
                    + "(or record from a copy without it)")
        }
        return loaded
    }

    /// Checks every file the run writes (`--junit`, `--report`, `--journal`, `--record`) before COMMAND starts:
    /// their folders are made, or the run stops here naming the one that cannot be written; then empties the
    /// journal file.
    private func prepareOutputs() throws(CLIError) {
        try outputs.prepare()
        if let record { try OutputFile.prepare(record, flag: "--record") }
        if let journal {
            try OutputFile.prepare(journal, flag: "--journal")
            guard FileManager.default.createFile(atPath: journal, contents: nil) else {
                throw CLIError("--journal \(journal): cannot create it")
            }
        }
    }

    /// Runs COMMAND (or waits for Ctrl-C without one), lets the journal settle and checks the scenario.
    private func play(mock: RunningMock, environment: RunEnvironment) async -> RunVerdict {
        // On the mock's clock, as the records are (`within:` compares the two).
        let startedAt = mock.server.engine.clock.now()
        var outcome: CommandOutcome?
        let inspector = mock.controlAPI.map(StartBanner.inspectorURL)
        if command.isEmpty {
            let signals = RunSignals()
            let lines =
                (inspector.map { ["inspector: \($0)"] } ?? [])
                + ["mock-apns: serving; export these to reach it, Ctrl-C to stop and verify:"] + environment.exportLines
            StandardStream.output.write(lines.joined(separator: "\n") + "\n")
            _ = await signals.next()
            signals.stop()
        } else {
            if let inspector {
                // Standard error: standard output is COMMAND's and then the verdict's.
                let later =
                    journal.map { "open the journal later with mock-apns inspect \(StartBanner.shellQuoted($0))" }
                    ?? "give --journal FILE to open the run later with mock-apns inspect FILE"
                warn("inspector \(inspector) while the scenario runs (\(later))")
            }
            // Caught from before the spawn (COMMAND gets the default dispositions back): one that arrives while
            // COMMAND starts waits in the stream and is passed on once it runs.
            let signals = RunSignals()
            do {
                let child = try RunChild(
                    arguments: command, environment: environment.childEnvironment, timeout: timeout)
                let forwarding = Task {
                    while let number = await signals.next() { child.send(number) }
                }
                outcome = await child.outcome
                signals.stop()
                await forwarding.value
            } catch {
                signals.stop()
                warn("cannot start COMMAND \(command[0]): \(error)")
                outcome = .exited(127)
            }
        }
        await Self.waitForQuiet(mock.server.journal, settle: settle)
        // A token the app would upload is part of the run: give its retries time to end before the verdict.
        await mock.server.engine.tokenUploads.waitUntilSettled()
        return RunVerdict(
            scenarioName: mock.server.scenario.name, report: mock.server.verify(startedAt: startedAt),
            command: command, outcome: outcome, startedAt: startedAt, journalFile: journal)
    }

    /// Returns once no record has been added for `settle`, at the latest after `settleCap` times `settle`.
    static func waitForQuiet(_ journal: Journal, settle: Duration) async {
        let clock = ContinuousClock()
        let giveUp = clock.now + settle * settleCap
        var count = journal.totalCount
        var quietSince = clock.now
        while clock.now < giveUp, clock.now - quietSince < settle {
            try? await Task.sleep(for: .milliseconds(10))
            let now = journal.totalCount
            if now != count {
                count = now
                quietSince = clock.now
            }
        }
    }

    /// `body`'s result; a scenario error or `CLIError` is printed and becomes exit status 2.
    private static func orExit2<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as ScenarioError {
            throw exit2("\(error)")
        } catch let error as CLIError {
            throw exit2(error.description)
        }
    }

    /// Prints `message` as an error and returns the exit of a usage or scenario error, 2.
    private static func exit2(_ message: String) -> ExitCode {
        StandardStream.error.write("Error: \(message)\n")
        return ExitCode(MockAPNsCommand.usageExitCode)
    }
}
