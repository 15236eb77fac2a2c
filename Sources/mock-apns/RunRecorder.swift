import Foundation
import MockAPNs

/// Record mode (`mock-apns run --record FILE`): the scenario's text with an `expect:` block listing what the
/// provider sent, one expectation per distinct (token, push type, topic) in first-seen order.
///
/// An update token the simulated phone issued during the run is new each run, so it is written as what names it
/// across runs, `token: { issuedFrom: <push-to-start token>, start: n }` (`IssuedTokenCondition`): the recorded
/// file then passes on replay.
struct RunRecorder {
    /// Payload paths never written: they change from run to run (a Live Activity's `aps.timestamp` is the time
    /// of sending).
    static let volatilePaths: Set<String> = ["aps.timestamp", "aps.stale-date", "aps.dismissal-date"]

    /// The scenario recorded from: its file's text is copied, comments and all.
    var scenario: Scenario
    /// The run's records, oldest first.
    var records: [JournalRecord]

    /// One expectation: its key, how many records had it, and the payload fields all of them share.
    private struct Group {
        var token: String
        /// For a token the phone issued in the run: the push-to-start token whose `start` issued it, and which start.
        var issuedFrom: (pushToStart: String, start: Int)?
        var pushType: String?
        var topic: String?
        var count: Int
        var fields: [(path: String, value: String)]
    }

    /// Whether the scenario file has a top-level `expect:` key (even an empty list, which loads as no expectations):
    /// a second one appended would be a duplicate key.
    static func hasExpectBlock(sourcePath: String?) -> Bool {
        guard let sourcePath, let text = try? String(contentsOfFile: sourcePath, encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { $0.hasPrefix("expect:") || $0.hasPrefix("\"expect\":") }
    }

    /// Writes the scenario's text (an empty document for the default world) and the `expect:` block to `path`.
    /// The file paths the scenario names relative to its folder are rewritten relative to `path`'s folder, so the
    /// copy names the same files wherever it is written.
    /// A `CLIError` names `--record` and `path`.
    func write(to path: String) throws(CLIError) {
        var text = ""
        if let source = scenario.sourcePath {
            do {
                text = try String(contentsOfFile: source, encoding: .utf8)
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
                text = try Self.relocating(text, paths: scenario.relativeFilePaths, to: folder)
            } catch {
                throw CLIError("--record \(path): \((error as? CLIError)?.description ?? OutputFile.reason(error))")
            }
            if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
            text += "\n"
        }
        text += expectBlock
        try OutputFile.write(text, to: path, flag: "--record")
    }

    /// The `expect:` block: a comment, then one entry per group; `expect: []` when nothing was sent.
    var expectBlock: String {
        let groups = self.groups
        var lines = ["# Recorded by mock-apns run --record: what the provider sent. Review and trim before committing."]
        guard !groups.isEmpty else { return (lines + ["expect: []"]).joined(separator: "\n") + "\n" }
        lines.append("expect:")
        for (index, group) in groups.enumerated() {
            lines.append("  - name: \(Self.quoted(Self.name(of: group, number: index + 1)))")
            lines.append("    match:")
            if let issued = group.issuedFrom {
                lines.append("      token: { issuedFrom: \(Self.quoted(issued.pushToStart)), start: \(issued.start) }")
            } else {
                lines.append("      token: \(Self.quoted(group.token))")
            }
            if let pushType = group.pushType { lines.append("      pushType: \(Self.quoted(pushType))") }
            if let topic = group.topic { lines.append("      topic: \(Self.quoted(topic))") }
            if !group.fields.isEmpty {
                lines.append("      payload:")
                for field in group.fields {
                    lines.append("        \(Self.quoted(field.path)): \(Self.quoted(field.value))")
                }
            }
            lines.append("    count: \(group.count)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1. alert to 5984de83fef0…`, `2. liveactivity to the update token of start 1 from db25ba391264…`.
    private static func name(of group: Group, number: Int) -> String {
        let to =
            group.issuedFrom.map { "the update token of start \($0.start) from \($0.pushToStart.prefix(12))…" }
            ?? "\(group.token.prefix(12))…"
        return "\(number). \(group.pushType ?? "push") to \(to)"
    }

    /// The records with a device token grouped by (token, push type, topic), first seen first. A group's fields
    /// are the payload's scalar values (by dotted path) that every record of the group has alike.
    private var groups: [Group] {
        var groups: [Group] = []
        var index: [String: Int] = [:]
        // Each token the phone issued: which push-to-start token's start issued it, and which of its starts.
        var issuedFrom: [String: (pushToStart: String, start: Int)] = [:]
        for (pushToStart, tokens) in IssuedTokenCondition.issued(in: records) {
            for (offset, token) in tokens.enumerated() { issuedFrom[token] = (pushToStart, offset + 1) }
        }
        for record in records {
            // As expectations compare tokens: ignoring case (a token sent in both cases is one device).
            guard let sent = record.deviceToken, !sent.isEmpty else { continue }
            let token = DeviceToken(sent)?.hex ?? sent
            let key = [token, record.pushType ?? "", record.topic ?? ""].joined(separator: "\u{0}")
            let fields = record.payloadJSON.map { Self.scalarFields($0) } ?? []
            if let existing = index[key] {
                groups[existing].count += 1
                groups[existing].fields.removeAll { field in !fields.contains { $0 == field } }
            } else {
                index[key] = groups.count
                groups.append(
                    Group(
                        token: token, issuedFrom: issuedFrom[token.lowercased()], pushType: record.pushType,
                        topic: record.topic, count: 1, fields: fields))
            }
        }
        return groups
    }

    /// Every scalar (not null) of `value` by dotted path (`aps.alert.title`, `items.0`), in document order; keys
    /// containing a dot (which a path could not name) and `volatilePaths` are left out.
    static func scalarFields(_ value: JSONValue, prefix: String = "") -> [(path: String, value: String)] {
        switch value {
        case .null:
            return []
        case .bool, .number, .string:
            return prefix.isEmpty || volatilePaths.contains(prefix) ? [] : [(prefix, value.scalarText)]
        case .array(let elements):
            return elements.enumerated().flatMap { scalarFields($1, prefix: path(prefix, String($0))) }
        case .object(let members):
            return members.filter { !$0.0.contains(".") && !$0.0.isEmpty }.flatMap {
                scalarFields($1, prefix: path(prefix, $0))
            }
        }
    }

    private static func path(_ prefix: String, _ key: String) -> String {
        prefix.isEmpty ? key : prefix + "." + key
    }

    /// `text` with each of `paths` (where the scenario wrote a relative file path) rewritten relative to `folder`;
    /// unchanged where `folder` is the scenario's own. Throws for a path written over several lines.
    static func relocating(_ text: String, paths: [ScenarioFilePath], to folder: String) throws -> String {
        var lines = text.components(separatedBy: "\n")
        // From the end, so that a rewrite never moves the column of one still to do.
        for path in paths.sorted(by: { ($0.line, $0.column) > ($1.line, $1.column) }) {
            let moved = relativePath(from: folder, to: path.resolved)
            guard moved != path.written else { continue }
            guard path.line >= 1, path.line <= lines.count,
                let span = scalarSpan(in: lines[path.line - 1], column: path.column, written: path.written)
            else {
                throw CLIError(
                    "cannot rewrite \(path.field) (line \(path.line)) for the new folder: write the file beside the "
                        + "scenario, or name that file by an absolute path")
            }
            var line = Array(lines[path.line - 1].unicodeScalars)
            line.replaceSubrange(span, with: quoted(moved).unicodeScalars)
            lines[path.line - 1] = String(String.UnicodeScalarView(line))
        }
        return lines.joined(separator: "\n")
    }

    /// Where a one-line scalar whose value is `written` starts at `column` (1-based) of `line` and where it ends,
    /// quotes included; `nil` when the line does not hold it there.
    private static func scalarSpan(in line: String, column: Int, written: String) -> Range<Int>? {
        let scalars = Array(line.unicodeScalars)
        let start = column - 1
        guard start >= 0, start < scalars.count else { return nil }
        switch scalars[start] {
        case "\"", "'":
            let quote = scalars[start]
            var index = start + 1
            while index < scalars.count {
                if quote == "\"", scalars[index] == "\\" {
                    index += 2
                    continue
                }
                if scalars[index] == quote {
                    if quote == "'", index + 1 < scalars.count, scalars[index + 1] == "'" {
                        index += 2
                        continue
                    }
                    return start..<(index + 1)
                }
                index += 1
            }
            return nil
        default:
            let value = Array(written.unicodeScalars)
            guard start + value.count <= scalars.count, Array(scalars[start..<(start + value.count)]) == value else {
                return nil
            }
            return start..<(start + value.count)
        }
    }

    /// `target` relative to the folder `folder` (`../../certs/key.p8`); both made absolute and standardized.
    static func relativePath(from folder: String, to target: String) -> String {
        let from = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL.pathComponents
        let to = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        var shared = 0
        while shared < min(from.count, to.count), from[shared] == to[shared] { shared += 1 }
        return (Array(repeating: "..", count: from.count - shared) + to[shared...]).joined(separator: "/")
    }

    /// `text` as a YAML double-quoted scalar: a JSON string, which YAML reads the same way.
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).jsonText
    }
}
