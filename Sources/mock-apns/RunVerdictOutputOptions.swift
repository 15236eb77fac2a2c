import ArgumentParser
import Foundation

/// The outputs of a verdict, shared by `run` and `verify`: the terminal text, JUnit XML, Markdown.
struct RunVerdictOutputOptions: ParsableArguments {
    @Option(name: .long, help: "Write the verdict as JUnit XML to this file.")
    var junit: String?

    @Option(name: .long, help: "Write the verdict as Markdown to this file (also appended to $GITHUB_STEP_SUMMARY).")
    var report: String?

    @Flag(name: .long, help: "Print only what failed, and the summary line.")
    var quiet = false

    /// Checks, before the run, that the files asked for can be written: creates their missing folders, and
    /// refuses (naming the flag and the folder) what cannot be (see `OutputFile.prepare`).
    func prepare() throws(CLIError) {
        if let junit { try OutputFile.prepare(junit, flag: "--junit") }
        if let report { try OutputFile.prepare(report, flag: "--report") }
    }

    /// Prints `verdict` (in colour on a terminal unless `NO_COLOR` is set) and writes the files asked for; returns
    /// whether every file was written (one that still cannot be, after `prepare()` passed, is reported on standard
    /// error and makes a passing run exit 2, see `RunVerdict.exitStatus(outputsWritten:)`).
    func write(_ verdict: RunVerdict) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        let colour = isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty
        StandardStream.output.write(verdict.terminalText(quiet: quiet, colour: colour) + "\n", endIfClosed: false)
        var written = true
        if let junit { written = Self.write(verdict.junit, to: junit, flag: "--junit") && written }
        if let report { written = Self.write(verdict.markdown, to: report, flag: "--report") && written }
        if let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            Self.append(verdict.markdown, to: summary)
        }
        return written
    }

    private static func write(_ text: String, to path: String, flag: String) -> Bool {
        do { try OutputFile.write(text, to: path, flag: flag) } catch {
            warn(error.description)
            return false
        }
        return true
    }

    private static func append(_ text: String, to path: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            if !FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) {
                warn("GITHUB_STEP_SUMMARY \(path): cannot write it")
            }
            return
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            warn("GITHUB_STEP_SUMMARY \(path): cannot append to it: \(error.localizedDescription)")
        }
    }
}

/// Prints `message` on standard error, prefixed `mock-apns: `.
func warn(_ message: String) {
    StandardStream.error.write("mock-apns: \(message)\n")
}
