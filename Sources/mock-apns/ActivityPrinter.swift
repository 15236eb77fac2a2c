import Foundation
import MockAPNs

/// Prints Live Activities as a table for people or JSON lines for tools (`mock-apns activities`).
struct ActivityPrinter {
    let json: Bool
    let color: Bool
    /// With `--follow`: a first column says what changed (`listed` for the activities there at the start).
    let follow: Bool

    /// The widths of every column but the last (OUTCOMES), which takes the rest of the line.
    static let widths = [8, 24, 9, 13, 40]
    /// The width of the CHANGE column with `--follow`.
    static let changeWidth = 18

    /// The column titles (tables only).
    func header() {
        guard !json else { return }
        write(row(change: follow ? "CHANGE" : nil, "ID", "TYPE", "STATE", "TOKEN", "CONTENT-STATE", "OUTCOMES"), .dim)
    }

    /// One activity as listed at the start: a table row, or its JSON on one line.
    func print(_ activity: ActivitySnapshot) {
        if json { return write(activity.json.jsonText, nil) }
        write(row(change: follow ? "listed" : nil, activity), Self.style(activity.state))
    }

    /// One change: a table row whose first column says what changed, or the change's JSON on one line.
    func print(_ change: ActivityChange) {
        if json { return write(change.json.jsonText, nil) }
        let what = change.outcome.map { "\(change.kind.rawValue) (\($0.rawValue))" } ?? change.kind.rawValue
        write(row(change: what, change.activity), Self.style(change.activity.state))
    }

    /// Lines under the table (`DroppedStarts.footer`), in yellow on a terminal.
    func footer(_ lines: [String]) {
        for line in lines { write(line, .yellow) }
    }

    private func row(change: String?, _ activity: ActivitySnapshot) -> String {
        let counts = activity.outcomeCounts
        let outcomes = DeviceOutcome.Kind.allCases.compactMap { kind in
            counts[kind].flatMap { $0 > 0 ? "\(kind.rawValue) \($0)" : nil }
        }
        return row(
            change: change, String(activity.id.prefix(8)).lowercased(), activity.attributesType,
            activity.state.rawValue, Self.shortToken(activity.updateToken), activity.contentState.jsonText,
            outcomes.isEmpty ? "-" : outcomes.joined(separator: ", "))
    }

    private func row(change: String?, _ values: String...) -> String {
        var line = change.map { RecordPrinter.fit($0, Self.changeWidth) + " " } ?? ""
        for (index, value) in values.enumerated() {
            line += index < Self.widths.count ? Self.cut(value, Self.widths[index]) + " " : value
        }
        return line
    }

    /// `value` padded to `width`, or cut at the end with `…` (compact JSON reads best from its start).
    static func cut(_ value: String, _ width: Int) -> String {
        guard value.count > width else { return value.padding(toLength: width, withPad: " ", startingAt: 0) }
        return value.prefix(width - 1) + "…"
    }

    /// The first 8 and last 4 hex digits of a 160-digit token.
    static func shortToken(_ token: String) -> String {
        token.count > 13 ? "\(token.prefix(8))…\(token.suffix(4))" : token
    }

    private static func style(_ state: ActivityState) -> Terminal.Style? {
        switch state {
        case .active: .green
        case .stale: .yellow
        case .ended, .dismissed: .dim
        }
    }

    private func write(_ line: String, _ style: Terminal.Style?) {
        let text = color && style != nil ? Terminal.paint(line, style!) : line
        StandardStream.output.write(text + "\n")
    }
}
