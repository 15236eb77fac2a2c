import Foundation
import MockAPNs

/// Prints records as a table for people or JSON lines for tools.
struct RecordPrinter {
    let json: Bool
    let color: Bool

    /// Local time of day, 24-hour, with milliseconds.
    private static func timeText(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second, .nanosecond], from: date)
        let milliseconds = (parts.nanosecond ?? 0) / 1_000_000
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)).\(String(format: "%03d", milliseconds))"
    }

    /// The column titles (tables only).
    func header() {
        write(columns("SEQ", "TIME", "TOKEN", "TYPE", "TOPIC", "RESULT", "CONTENT"), style: .dim)
    }

    /// One record: a table row, or its JSON on one line.
    func print(_ record: JournalRecord) {
        if json {
            write(record.json.jsonText, style: nil)
            return
        }
        let style: Terminal.Style =
            record.response == nil ? .yellow : record.accepted ? .green : .red
        let row = columns(
            String(record.sequence), Self.timeText(record.receivedAt), record.shortToken,
            record.pushType ?? "-", record.topic ?? "-", record.outcomeText, record.contentText)
        write(row, style: style)
    }

    private func columns(_ values: String...) -> String {
        let widths = [6, 12, 13, 13, 28, 26]
        var line = ""
        for (index, value) in values.enumerated() {
            if index < widths.count {
                line += value.padding(toLength: max(widths[index], value.count), withPad: " ", startingAt: 0) + " "
            } else {
                line += value
            }
        }
        return line
    }

    private func write(_ line: String, style: Terminal.Style?) {
        let text = color && style != nil ? Terminal.paint(line, style!) : line
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// Whether and how to colour output.
enum Terminal {
    /// ANSI colours used.
    enum Style: String {
        case green = "32"
        case red = "31"
        case yellow = "33"
        case dim = "2"
    }

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static var wantsColor: Bool {
        if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
        return isatty(STDOUT_FILENO) == 1
    }

    /// `text` in `style`.
    static func paint(_ text: String, _ style: Style) -> String {
        "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }
}
