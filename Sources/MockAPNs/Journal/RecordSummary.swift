import Foundation

/// A journal record in brief, for a list of thousands: what the inspector's rows show, without the headers, the
/// payload, the authentication or the explanation (`view=summary` on `GET /v1/requests` and its stream).
///
/// Built from the record's fields directly, never by encoding the whole record; the payload is parsed once, for
/// `text`. A record of another kind than a device push has only `sequence`, `kind` and `receivedAt`.
public struct RecordSummary: Sendable, Hashable {
    /// The most characters of `text`.
    public static let textLimit = 120

    /// The record's sequence number.
    public var sequence: UInt64
    /// What the record is of (`push`).
    public var kind: JournalRecord.Kind
    /// When the request was read.
    public var receivedAt: Date
    /// The rest, for a device push; `nil` for a record of another kind.
    public var push: Push?

    /// What a device push's summary says beyond its sequence, kind and time.
    public struct Push: Sendable, Hashable {
        /// The connection's number.
        public var connection: UInt64
        /// The device token from the path, as sent.
        public var token: String?
        /// `apns-topic` as sent.
        public var topic: String?
        /// The push type it was taken as.
        public var pushType: String?
        /// `apns-priority` as sent (text, as headers are).
        public var priority: String?
        /// The HTTP status answered; `nil` when a fault sent none.
        public var status: Int?
        /// Whether APNs accepted it.
        public var accepted: Bool
        /// The rejection reason.
        public var reason: String?
        /// The rule that decided.
        public var rule: String
        /// What the simulated phone did (`applied`, `dropped`, ...); `nil` when the push reached no phone state.
        public var device: DeviceOutcome.Kind?
        /// The Live Activity it reached or started.
        public var activity: String?
        /// The alert's title and body, else an excerpt of the content-state: at most `textLimit` characters.
        public var text: String?
        /// How many notes the decision carries.
        public var notes: Int
        /// The record it replays (`POST /v1/requests/{seq}/replay`); `nil` for a push a client sent.
        public var replayOf: UInt64?
    }

    /// The summary of `record`.
    public init(_ record: JournalRecord) {
        sequence = record.sequence
        kind = record.kind
        receivedAt = record.receivedAt
        guard record.otherKind == nil else { return }
        push = Push(
            connection: record.connectionID, token: record.deviceToken, topic: record.topic,
            pushType: record.pushType, priority: record.request.fields.priority, status: record.response?.status,
            accepted: record.accepted, reason: record.reason, rule: record.rule, device: record.device?.kind,
            activity: record.device?.activityID, text: Self.text(of: record.payloadJSON), notes: record.notes.count,
            replayOf: record.replayOf)
    }

    /// The summary as JSON: `sequence`, `kind`, `receivedAt`, then for a device push `connection`, `token`,
    /// `topic`, `pushType`, `priority`, `status`, `accepted`, `reason`, `rule`, `device`, `activity`, `text`,
    /// `notes` and `replayOf`, always present (`null` when empty), in this order.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("sequence", .number(String(sequence))), ("kind", .string(kind.name)),
            ("receivedAt", .string(Timestamp.text(receivedAt))),
        ]
        guard let push else { return .object(members) }
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        members += [
            // A replay came on no connection (0), written `null` as in the record.
            ("connection", push.connection == 0 ? .null : .number(String(push.connection))), ("token", text(push.token)),
            ("topic", text(push.topic)), ("pushType", text(push.pushType)), ("priority", text(push.priority)),
            ("status", push.status.map { .number(String($0)) } ?? .null), ("accepted", .bool(push.accepted)),
            ("reason", text(push.reason)), ("rule", .string(push.rule)), ("device", text(push.device?.rawValue)),
            ("activity", text(push.activity)), ("text", text(push.text)), ("notes", .number(String(push.notes))),
            ("replayOf", push.replayOf.map { .number(String($0)) } ?? .null),
        ]
        return .object(members)
    }

    /// What a push shows, at most `textLimit` characters: the alert (its text, or its title and body joined by
    /// " — "), else the content-state on one line; `nil` when it has neither.
    static func text(of payload: JSONValue?) -> String? {
        guard let aps = payload?["aps"] else { return nil }
        var shown: String?
        switch aps["alert"] {
        case .string(let alert)?:
            shown = alert
        case .object?:
            let parts = ["title", "body"].compactMap { aps["alert"]?[$0]?.stringValue }.filter { !$0.isEmpty }
            shown = parts.isEmpty ? nil : parts.joined(separator: " — ")
        default:
            break
        }
        if shown == nil, let state = aps["content-state"] { shown = state.jsonText }
        guard let shown, !shown.isEmpty else { return nil }
        let line = shown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > textLimit ? String(line.prefix(textLimit - 1)) + "…" : line
    }
}
