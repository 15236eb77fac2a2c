import MockAPNs

extension RunVerdict {
    /// The verdict as JUnit XML: one test suite named for the scenario, one test case per item (class name
    /// `mock-apns.expectation`, `.unexpected` or `.check`), one for dropped records when there were any, and one
    /// for COMMAND's exit; a failure's message is its summary and its text the details. The suite's property
    /// `startedAt` is where `within:` counted from.
    var junit: String {
        var cases: [(className: String, name: String, failure: (message: String, text: String)?)] = []
        for item in report.items {
            let failure = item.passed ? nil : (item.summary, item.details.joined(separator: "\n"))
            cases.append(("mock-apns.\(item.kind.rawValue)", item.name, failure))
        }
        if report.droppedRecords > 0 {
            cases.append(("mock-apns.journal", "every record was checked", (report.summaryLine, report.summaryLine)))
        }
        if let outcome {
            let failure = outcome.succeeded ? nil : ("COMMAND \(outcome.text)", "\(commandText) \(outcome.text)")
            cases.append(("mock-apns.command", "COMMAND \(commandText) exits 0", failure))
        }
        let failures = cases.filter { $0.failure != nil }.count
        let suite = Self.xmlEscaped(scenarioName)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="mock-apns" tests="\#(cases.count)" failures="\#(failures)" errors="0">"#,
            #"  <testsuite name="\#(suite)" tests="\#(cases.count)" failures="\#(failures)" errors="0" skipped="0">"#,
        ]
        if let startedAt {
            // Where within: counted from: `mock-apns verify --started-at` takes it to give the same verdict.
            lines += [
                "    <properties>",
                #"      <property name="startedAt" value="\#(Timestamp.text(startedAt))"/>"#,
                "    </properties>",
            ]
        }
        for testCase in cases {
            let open = #"    <testcase classname="\#(testCase.className)" name="\#(Self.xmlEscaped(testCase.name))""#
            guard let failure = testCase.failure else {
                lines.append(open + "/>")
                continue
            }
            lines.append(open + ">")
            lines.append(
                #"      <failure message="\#(Self.xmlEscaped(failure.message))">"#
                    + "\(Self.xmlEscaped(failure.text))</failure>"
            )
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` safe inside XML 1.0 text and quoted attributes: the five markup characters as entities, control
    /// characters XML 1.0 cannot carry (all below U+0020 but tab, newline and return) as U+FFFD.
    static func xmlEscaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
