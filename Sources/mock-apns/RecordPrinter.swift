import Foundation
import MockAPNs

/// Prints records as a table for people or JSON lines for tools.
///
/// The table fits 120 columns: CONTENT is cut with `…`, a rejected row (or one the phone dropped or ignored) gets
/// the why on an indented line under it, and a row whose record carries notes is marked `*` after its sequence
/// number (`mock-apns requests SEQ` shows them).
struct RecordPrinter {
    let json: Bool
    let color: Bool

    /// The line width the table keeps to.
    static let lineWidth = 120

    /// The marker after the sequence number of a record that carries notes.
    static let notesMarker = "*"

    /// Local time of day, 24-hour, with milliseconds.
    static func timeText(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second, .nanosecond], from: date)
        let milliseconds = (parts.nanosecond ?? 0) / 1_000_000
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)).\(String(format: "%03d", milliseconds))"
    }

    /// The column titles (tables only).
    func header() {
        write(columns("SEQ", "TIME", "TOKEN", "TYPE", "TOPIC", "RESULT", "CONTENT"), style: .dim)
    }

    /// One record: a table row (with the why under a rejection), or its JSON on one line.
    func print(_ record: JournalRecord) {
        if json {
            write(record.json.jsonText, style: nil)
            return
        }
        if let event = record.deviceEvent {
            // A later event of a push: which push, what happened and why, and what the phone then did.
            var result = "#\(event.push) \(event.event.kind.rawValue) \(event.event.rule?.id ?? "")"
            if let related = event.event.related { result += " (#\(related))" }
            if let device = event.device { result += " → \(device.kind.rawValue) \(device.rule?.id ?? "")" }
            let row = columns(
                "\(record.sequence)", Self.timeText(event.at), "-", record.kind.name, "-", result,
                event.event.reason ?? "")
            return write(row, style: nil)
        }
        if record.kind != .devicePush {
            // A kind this version does not read (a newer server's): its name and members, shown as they came.
            let row = columns(
                "\(record.sequence)", Self.timeText(record.receivedAt), "-", record.kind.name, "-", "-",
                record.otherKindText)
            return write(row, style: nil)
        }
        let style: Terminal.Style =
            record.response == nil ? .yellow : record.accepted ? .green : .red
        let marker = Self.hasNotes(record) ? Self.notesMarker : ""
        let row = columns(
            "\(record.sequence)\(marker)", Self.timeText(record.receivedAt), record.shortToken,
            record.pushType ?? "-", record.topic ?? "-", record.resultText, record.contentText)
        write(row, style: style)
        if let why = Self.why(record) {
            let indent = String(repeating: " ", count: Self.widths[0] + 1)
            write(Self.cut(indent + "why: " + why, Self.lineWidth), style: style)
        }
    }

    /// After the table: what the `*` means, when a listed row carried it.
    func legend(_ records: [JournalRecord]) {
        guard !json, records.contains(where: Self.hasNotes) else { return }
        write("\(Self.notesMarker) the record carries notes: mock-apns requests SEQ explains it", style: .dim)
    }

    /// Whether the record carries notes: oddities APNs accepted, or the phone's notes and warnings.
    static func hasNotes(_ record: JournalRecord) -> Bool {
        !record.notes.isEmpty || !(record.device?.notes.isEmpty ?? true) || !(record.device?.warnings.isEmpty ?? true)
    }

    /// Why a push did not simply succeed: the rejection's explanation, the fault of a missing answer, or what the
    /// phone did instead of showing it (its rule and reason); `nil` for a push accepted that the phone showed,
    /// applied, launched or reported.
    static func why(_ record: JournalRecord) -> String? {
        if !record.accepted { return record.explanation.isEmpty ? record.fault : record.explanation }
        if record.response == nil { return record.fault }
        guard let device = record.device, let reason = device.reason, !device.kind.isSuccess else { return nil }
        return "phone \(device.kind.rawValue)" + (device.rule.map { " (\($0.id))" } ?? "") + ": \(reason)"
    }

    /// The widths of every column but the last (CONTENT), which takes the rest of `lineWidth`.
    static let widths = [6, 12, 13, 12, 22, 26]

    /// The width CONTENT is cut to.
    static let contentWidth = lineWidth - widths.reduce(0, +) - widths.count

    /// The values padded to their columns; a longer value is shortened in the middle with `…`, so that every
    /// row lines up even with Live Activity topics (`com.example.app.push-type.liveactivity`) or long reasons;
    /// CONTENT is cut at its end.
    private func columns(_ values: String...) -> String {
        var line = ""
        for (index, value) in values.enumerated() {
            if index < Self.widths.count {
                line += Self.fit(value, Self.widths[index]) + " "
            } else {
                line += Self.cut(value, Self.contentWidth)
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

    /// `value` cut at its end to `width` characters with `…` (whole characters: UTF-8 is never split), and with
    /// line breaks shown as spaces so that one record stays one row.
    static func cut(_ value: String, _ width: Int) -> String {
        let flat = value.contains(where: \.isNewline) ? String(value.map { $0.isNewline ? " " : $0 }) : value
        guard flat.count > width else { return flat }
        return flat.prefix(width - 1) + "…"
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
