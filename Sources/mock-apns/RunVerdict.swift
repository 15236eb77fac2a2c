import Foundation
import MockAPNs

/// What `mock-apns run` and `mock-apns verify` report: the scenario's verdict and, for `run`, how COMMAND ended.
struct RunVerdict {
    /// The exit status when an expectation or check failed (whatever COMMAND did).
    static let failedExitCode: Int32 = 1
    /// The exit status when COMMAND failed (non-zero, killed, past --timeout) while everything else passed.
    static let commandFailedExitCode: Int32 = 3

    /// The scenario's name, for the JUnit suite and the Markdown heading.
    var scenarioName: String
    var report: VerifyReport
    /// The words of COMMAND, empty for none (`verify`, or `run` without COMMAND).
    var command: [String] = []
    /// How COMMAND ended; `nil` when there was none.
    var outcome: CommandOutcome?
    /// Where `within:` counted from (COMMAND's start, on the mock's clock); `verify --started-at` takes it back.
    var startedAt: Date?
    /// The journal file the run wrote (`--journal`) or `verify` read: the report says how to open it.
    var journalFile: String?

    /// 0 when everything passed, 1 when an expectation or check failed, else 3 when COMMAND failed.
    var exitCode: Int32 {
        if !report.passed { return Self.failedExitCode }
        if let outcome, !outcome.succeeded { return Self.commandFailedExitCode }
        return 0
    }

    /// `exitCode`, except that a run that passed but could not write a file asked for (`--junit`, `--report`,
    /// `--record`) exits 2: a CI job must not pass without the report it uploads. A failure keeps its own code.
    ///
    /// The files' folders are made (or refused) before the run (`OutputFile.prepare`), so this happens only when a
    /// write fails at the end all the same (a full disk, a folder made read-only meanwhile).
    func exitCode(outputsWritten: Bool) -> Int32 {
        exitCode == 0 && !outputsWritten ? MockAPNsCommand.usageExitCode : exitCode
    }

    /// `exitCode(outputsWritten:)`, saying on standard error, after the file's own error, why a verdict that
    /// passed exits 2, so that the status never contradicts the verdict above it without a word.
    func exitStatus(outputsWritten: Bool) -> Int32 {
        let status = exitCode(outputsWritten: outputsWritten)
        if status != exitCode {
            warn(
                "the verdict passed, but exit status \(status): an output file asked for was not written (above), "
                    + "and a CI job must not pass without it")
        }
        return status
    }

    /// COMMAND as one line, its words shell-quoted.
    var commandText: String { command.map(StartBanner.shellQuoted).joined(separator: " ") }

    /// The line about COMMAND's exit: `✓ command 'sh -c …' exited 0`; `nil` without COMMAND.
    var commandLine: String? {
        guard let outcome else { return nil }
        return "\(outcome.succeeded ? "✓" : "✗") command \(commandText) \(outcome.text)"
    }

    /// The terminal text: COMMAND's line, one line per item with the failures' details, the summary line.
    /// `quiet` leaves out what passed; `colour` paints ✓ green and ✗ red (ANSI), for a terminal.
    func terminalText(quiet: Bool, colour: Bool) -> String {
        var lines: [String] = []
        if let commandLine, !(quiet && outcome?.succeeded == true) { lines.append(commandLine) }
        lines += report.text(failuresOnly: quiet).components(separatedBy: "\n")
        guard colour else { return lines.joined(separator: "\n") }
        return lines.map { line in
            if line.hasPrefix("✓") { return "\u{1B}[32m✓\u{1B}[0m" + line.dropFirst() }
            if line.hasPrefix("✗") { return "\u{1B}[31m✗\u{1B}[0m" + line.dropFirst() }
            return line
        }.joined(separator: "\n")
    }
}
