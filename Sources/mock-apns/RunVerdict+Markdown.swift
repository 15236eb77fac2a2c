import MockAPNs

extension RunVerdict {
    /// The verdict as Markdown, for `--report` and `$GITHUB_STEP_SUMMARY`: a heading with the outcome, COMMAND's
    /// exit, one bullet per item, each failure's details in a text block, the summary line, and the journal file
    /// with the command that opens it in the inspector.
    var markdown: String {
        let result = exitCode == 0 ? "passed" : "failed"
        var lines = ["### mock-apns: scenario `\(Self.inlineCode(scenarioName))` \(result)", ""]
        if let outcome {
            let mark = outcome.succeeded ? "✅" : "❌"
            lines.append("- \(mark) COMMAND `\(Self.inlineCode(commandText))` \(outcome.text)")
        }
        for item in report.items {
            let label = item.kind == .check ? "check " : ""
            lines.append(
                "- \(item.passed ? "✅" : "❌") \(label)**\(Self.escaped(item.name))**: "
                    + Self.escaped(item.summary))
            if !item.passed, !item.details.isEmpty {
                lines +=
                    ["", "  ```text"] + item.details.map { "  " + $0.replacingOccurrences(of: "```", with: "'''") }
                lines += ["  ```", ""]
            }
        }
        lines += ["", Self.escaped(report.summaryLine), ""]
        if let journalFile {
            let open = "mock-apns inspect \(StartBanner.shellQuoted(journalFile))"
            lines += [
                "Journal: `\(Self.inlineCode(journalFile))`; open it in the inspector with `\(Self.inlineCode(open))`",
                "",
            ]
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with Markdown's inline markup characters backslash-escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_[]<>#|".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// `text` for inside single backticks: backticks become quotes, which a code span cannot escape.
    private static func inlineCode(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "'")
    }
}
