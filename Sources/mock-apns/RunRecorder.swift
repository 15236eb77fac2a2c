import Foundation
import MockAPNs

/// Record mode (`mock-apns run --record FILE`): the scenario's text with an `expect:` block listing what the
/// provider sent, one expectation per distinct (token, push type, topic) in first-seen order.
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
    func write(to path: String) throws {
        var text = ""
        if let source = scenario.sourcePath {
            text = try String(contentsOfFile: source, encoding: .utf8)
            if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
            text += "\n"
        }
        text += expectBlock
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw CLIError("cannot write it: \(error.localizedDescription)")
        }
    }

    /// The `expect:` block: a comment, then one entry per group; `expect: []` when nothing was sent.
    var expectBlock: String {
        let groups = self.groups
        var lines = ["# Recorded by mock-apns run --record: what the provider sent. Review and trim before committing."]
        guard !groups.isEmpty else { return (lines + ["expect: []"]).joined(separator: "\n") + "\n" }
        lines.append("expect:")
        for (index, group) in groups.enumerated() {
            let name = "\(index + 1). \(group.pushType ?? "push") to \(group.token.prefix(12))…"
            lines.append("  - name: \(Self.quoted(name))")
            lines.append("    match:")
            lines.append("      token: \(Self.quoted(group.token))")
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

    /// The records with a device token grouped by (token, push type, topic), first seen first. A group's fields
    /// are the payload's scalar values (by dotted path) that every record of the group has alike.
    private var groups: [Group] {
        var groups: [Group] = []
        var index: [String: Int] = [:]
        for record in records {
            guard let token = record.deviceToken, !token.isEmpty else { continue }
            let key = [token, record.pushType ?? "", record.topic ?? ""].joined(separator: "\u{0}")
            let fields = record.payloadJSON.map { Self.scalarFields($0) } ?? []
            if let existing = index[key] {
                groups[existing].count += 1
                groups[existing].fields.removeAll { field in !fields.contains { $0 == field } }
            } else {
                index[key] = groups.count
                groups.append(
                    Group(token: token, pushType: record.pushType, topic: record.topic, count: 1, fields: fields))
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

    /// `text` as a YAML double-quoted scalar: a JSON string, which YAML reads the same way.
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).jsonText
    }
}
