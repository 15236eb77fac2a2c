import Foundation
import MockAPNs
import MockAPNsClient

/// Under `mock-apns push`'s status line, when the endpoint is mock-apns: why it answered so, from the record the
/// control API keeps of the push (found by the apns-id answered).
///
/// Best effort: an endpoint that is not mock-apns (its control API unreachable, or no record with that apns-id)
/// prints nothing more, and never changes the push's exit status.
enum PushExplanation {
    /// How long the look-up may take: the control API answers at once when it is there.
    static let timeout = Duration.seconds(2)

    /// Prints `why:`, `note:` and `phone:` lines for the record of the push answered with `apnsID`, if any.
    static func show(apnsID: String?, control: ControlOptions) async {
        guard let apnsID else { return }
        var client = control.client()
        client.requestTimeout = timeout
        guard let records = try? await client.records(JournalQuery(apnsID: apnsID, limit: 1)),
            let record = records.last
        else { return }
        let lines = lines(record)
        // Through `print`, as the status line above went: both leave in order.
        if !lines.isEmpty { print(lines.joined(separator: "\n")) }
    }

    /// How many of the newest records of a kind the look-up of a broadcast or channel request reads: the request
    /// was just answered, so it is among them unless many others came since.
    static let recentLimit = 50

    /// The `why:` and `note:` lines of the broadcast or channel request (a record of `kind`) answered with
    /// `requestID`, when the endpoint is mock-apns; empty otherwise. Such records carry `apns-request-id`, not an
    /// apns-id, so the newest records of the kind are read and the one with that `requestID` taken.
    static func lines(kind: JournalRecord.Kind, requestID: String?, control: ControlOptions) async -> [String] {
        guard let requestID, let search = try? RecordSearch("kind:\(kind.name)") else { return [] }
        var client = control.client()
        client.requestTimeout = timeout
        guard let records = try? await client.records(JournalQuery(search: search, limit: recentLimit)),
            let record = records.last(where: { $0.otherKindMember("requestID")?.stringValue == requestID })
        else { return [] }
        var lines: [String] = []
        if let rule = record.otherKindMember("rule")?.stringValue, rule != "accepted" {
            let why = record.otherKindMember("explanation")?.stringValue ?? ""
            lines.append("why: \(why) (rule \(rule), record #\(record.sequence))")
        }
        if case .array(let notes)? = record.otherKindMember("notes") {
            lines += notes.compactMap(\.stringValue).map { "note: \($0)" }
        }
        return lines
    }

    /// The lines for `record`: the why of anything but a plain success, its notes, and what the phone did.
    static func lines(_ record: JournalRecord) -> [String] {
        var lines: [String] = []
        if !record.accepted || record.response == nil {
            let why = record.explanation.isEmpty ? record.fault ?? "" : record.explanation
            lines.append("why: \(why) (rule \(record.rule), record #\(record.sequence))")
        }
        lines += record.notes.map { "note: \($0)" }
        if let device = record.device {
            lines.append("phone: \(device.summary)")
            lines += device.warnings.map { "warning: \($0)" }
            lines += device.notes.map { "note: \($0)" }
        }
        return lines
    }
}
