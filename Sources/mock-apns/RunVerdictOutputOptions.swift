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

    /// Prints `verdict` (in colour on a terminal unless `NO_COLOR` is set) and writes the files asked for; returns
    /// whether every file was written (one that cannot be is reported on standard error and makes a passing run
    /// exit 2, see `RunVerdict.exitCode(outputsWritten:)`).
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
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            warn("\(flag) \(path): cannot write it: \(error.localizedDescription)")
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
