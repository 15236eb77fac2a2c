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
            record.pushType ?? "-", record.topic ?? "-", record.resultText,
            record.device?.reason.map { "(\($0)) \(record.contentText)" } ?? record.contentText)
        write(row, style: style)
    }

    /// The widths of every column but the last (CONTENT), which takes the rest of the line.
    static let widths = [6, 12, 13, 13, 38, 30]

    /// The values padded to their columns; a longer value is shortened in the middle with `…`, so that every
    /// row lines up even with Live Activity topics (`com.example.app.push-type.liveactivity`) or long reasons.
    private func columns(_ values: String...) -> String {
        var line = ""
        for (index, value) in values.enumerated() {
            if index < Self.widths.count {
                line += Self.fit(value, Self.widths[index]) + " "
            } else {
                line += value
            }
        }
        return line
    }

    /// `value` padded to `width` characters, or shortened in the middle to exactly `width`.
    static func fit(_ value: String, _ width: Int) -> String {
        guard value.count > width else { return value.padding(toLength: width, withPad: " ", startingAt: 0) }
        let tail = (width - 1) / 2
        return "\(value.prefix(width - 1 - tail))…\(value.suffix(tail))"
    }

    private func write(_ line: String, style: Terminal.Style?) {
        let text = color && style != nil ? Terminal.paint(line, style!) : line
        StandardStream.output.write(text + "\n")
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
