import Foundation
import MockAPNs
import MockAPNsClient

/// `mock-apns requests SEQ`: one record explained in words, a labelled line for each part.
///
/// The request (the headers that decide, the payload), how it authenticated, the rule that decided and why, the
/// answer, and for a Live Activity push what the phone did and the activity before and after it.
struct RecordExplainer {
    let client: MockAPNsControlClient
    let json: Bool

    /// The width of the label column.
    private static let labelWidth = 10

    /// The headers that change what APNs does with a push, in the order they are shown.
    private static let headersThatMatter = [
        "apns-push-type", "apns-topic", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id",
        "authorization",
    ]

    /// Prints record `sequence`, or fails naming what the journal holds when it has no such record.
    func explain(_ sequence: UInt64) async throws {
        guard let record = try await controlCall({ try await client.record(sequence: sequence) }) else {
            let stats = try await controlCall { try await client.stats() }
            throw CLIError(
                "no record #\(sequence): the journal holds \(stats.records) record(s) of \(stats.total) recorded "
                    + "(cleared or dropped records are gone); list them with mock-apns requests")
        }
        if json { return StandardStream.output.write(record.json.jsonText + "\n") }
        if record.kind != .devicePush {
            // A kind this version does not read: its name, its time and its members, as they came.
            let received = Timestamp.text(record.receivedAt)
            return StandardStream.output.write(
                "#\(record.sequence) \(record.kind) received \(received): \(record.otherKindText)\n")
        }
        var lines = requestLines(record)
        lines += decisionLines(record)
        if let device = record.device { lines += try await phoneLines(record, device) }
        StandardStream.output.write(lines.joined(separator: "\n") + "\n")
    }

    private func requestLines(_ record: JournalRecord) -> [String] {
        let source =
            record.replayOf.map { "as a replay of #\($0) through the control API" }
            ?? "on connection \(record.connectionID), stream \(record.streamID), from \(record.remoteAddress)"
        var lines = [
            "#\(record.sequence) received \(Timestamp.text(record.receivedAt)) (\(RecordPrinter.timeText(record.receivedAt)) "
                + "local) \(source)",
            Self.line("request", "\(record.method) \(record.path)"),
        ]
        let shown = Self.headersThatMatter.compactMap { name in
            record.headers.first { $0.name == name }.map { header in
                "\(name): \(name == "authorization" ? RecordPrinter.cut(header.value, 40) : header.value)"
            }
        }
        lines += Self.block("headers", shown.isEmpty ? ["(none of apns-push-type, apns-topic, apns-priority, …)"] : shown)
        let bytes = record.payloadBytes
        lines.append(Self.line("payload", "\(bytes) bytes: \(RecordPrinter.cut(record.contentText, 90))"))
        return lines
    }

    private func decisionLines(_ record: JournalRecord) -> [String] {
        var lines: [String] = []
        if let auth = record.auth {
            var text = auth.kind
            if let teamID = auth.teamID { text += ", team \(teamID)" }
            if let keyID = auth.keyID { text += ", key \(keyID)" }
            if let issuedAt = auth.issuedAt {
                let age = Int64(record.receivedAt.timeIntervalSince1970.rounded(.down)) &- issuedAt
                text += ", issued \(age) s before the push"
            }
            text += auth.verified ? ", verified" : ", not verified"
            lines.append(Self.line("auth", text))
        } else {
            lines.append(Self.line("auth", "not checked (the request was decided before its token)"))
        }
        let verdict = record.accepted ? "accepted" : record.response == nil ? "not answered" : "rejected"
        lines.append(Self.line("rule", "\(record.rule): \(verdict)"))
        if !record.explanation.isEmpty { lines.append(Self.line("why", record.explanation)) }
        lines += Self.block("notes", record.notes)
        var answer = record.outcomeText
        if let response = record.response {
            answer += ", apns-id \(response.apnsID)"
            if let body = response.body { answer += ", body \(body)" }
        }
        lines.append(Self.line("answer", answer))
        return lines
    }

    private func phoneLines(_ record: JournalRecord, _ device: DeviceOutcome) async throws -> [String] {
        var lines = [Self.line("phone", device.summary)]
        lines += Self.block("warnings", device.warnings)
        lines += Self.block("notes", device.notes)
        if let token = device.updateToken { lines.append(Self.line("", "issued update token \(token)")) }
        guard let id = device.activityID else { return lines }
        guard let snapshot = try? await client.activity(id: id) else {
            lines.append(Self.line("activity", "\(id) (no longer on the phone)"))
            return lines
        }
        let activity = snapshot.activity
        lines.append(Self.line("activity", "\(id) \(activity.attributesType), now \(snapshot.state.rawValue)"))
        guard let index = activity.history.firstIndex(where: { $0.sequence == record.sequence }) else {
            lines.append(Self.line("", "now: content-state \(activity.contentState.jsonText)"))
            return lines
        }
        let (before, after) = await states(around: index, of: activity, record: record, device: device)
        lines.append(Self.line("before", before))
        lines.append(Self.line("after", after))
        return lines
    }

    /// The activity's state and content-state before and after the push at `index` of its history, read from the
    /// records of the pushes that changed it.
    private func states(
        around index: Int, of activity: LiveActivity, record: JournalRecord, device: DeviceOutcome
    ) async -> (before: String, after: String) {
        let changing: Set<DeviceOutcome.Kind> = [.started, .applied, .ended]
        let earlier = activity.history[..<index]
        var beforeState = "active"
        var beforeContent = "unknown (its start is not in the journal)"
        if device.kind == .started {
            beforeState = "not started"
            beforeContent = "none"
        } else {
            if earlier.contains(where: { $0.outcome == .ended }) { beforeState = "ended" }
            if let last = earlier.last(where: { changing.contains($0.outcome) }), let sequence = last.sequence,
                let previous = try? await client.record(sequence: sequence),
                let state = Self.contentState(previous)
            {
                beforeContent = "\(state) (#\(sequence))"
            }
        }
        let before = "\(beforeState), content-state \(beforeContent)"
        guard changing.contains(device.kind) else { return (before, "unchanged (\(device.kind.rawValue))") }
        let afterState = device.kind == .ended ? "ended" : "active"
        let afterContent = Self.contentState(record) ?? beforeContent
        return (before, "\(afterState), content-state \(afterContent)")
    }

    /// The payload's `aps.content-state`, as compact JSON.
    private static func contentState(_ record: JournalRecord) -> String? {
        record.payloadJSON?["aps"]?["content-state"].map { RecordPrinter.cut($0.jsonText, 90) }
    }

    private static func line(_ label: String, _ text: String) -> String {
        label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + text
    }

    /// The first item after the label, the others under it; nothing for no items.
    private static func block(_ label: String, _ items: [String]) -> [String] {
        items.enumerated().map { line($0.offset == 0 ? label : "", $0.element) }
    }
}
