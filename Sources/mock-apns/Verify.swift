import ArgumentParser
import Foundation
import MockAPNs

/// `mock-apns verify SCENARIO --journal FILE.jsonl`: the verdict of `run`, offline, from a saved journal.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scenario's expectations and checks against a journal file written by run or serve.",
        discussion: """
            Exit status: 0 everything passed, 1 an expectation or check failed, 2 a usage or scenario error or a \
            journal line that is not a record. within: counts from --started-at, else from the journal's first record.
            """)

    @Argument(help: "Scenario file (YAML) with expect: and checks:, or a shipped scenario's name.")
    var scenario: String

    @Option(name: .long, help: "The journal: JSON lines, one record each (run --journal, serve --journal).")
    var journal: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Count within: from this time (ISO 8601; run writes it as the JUnit property startedAt).",
            discussion: "Default: the journal's first record.", valueName: "time"))
    var startedAt: String?

    @OptionGroup var outputs: RunVerdictOutputOptions

    func validate() throws {
        if let startedAt, Timestamp.date(fromText: startedAt) == nil {
            throw ValidationError(
                "--started-at: expected an ISO 8601 time such as 2026-11-23T12:00:00.000Z, got \(startedAt)")
        }
    }

    func run() throws {
        let loaded: Scenario
        let records: [JournalRecord]
        do {
            loaded = try RunningMock.loadScenario(scenario)
            records = try Self.records(file: journal)
            try outputs.prepare()
        } catch {
            StandardStream.error.write("Error: \(error)\n")
            throw ExitCode(MockAPNsCommand.usageExitCode)
        }
        let start = startedAt.flatMap(Timestamp.date(fromText:)) ?? records.first?.receivedAt ?? Date()
        let report = loaded.verify(records, startedAt: start)
        let verdict = RunVerdict(scenarioName: loaded.name, report: report, startedAt: start, journalFile: journal)
        let status = verdict.exitStatus(outputsWritten: outputs.write(verdict))
        if status != 0 { throw ExitCode(status) }
    }

    /// The records of a JSON-lines journal; a `CLIError` naming `file:line` for a line that is not a record.
    static func records(file: String) throws -> [JournalRecord] {
        var records: [JournalRecord] = []
        var reader = JournalFileReader(path: file, mode: .strict)
        do {
            try reader.read { record, _ in records.append(record) }
        } catch {
            throw CLIError(error.line == nil ? "--journal \(error)" : error.description)
        }
        return records
    }
}
