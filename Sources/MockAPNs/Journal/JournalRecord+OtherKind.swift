import Foundation

extension JournalRecord {
    /// A record of a kind other than a device push (`kind`) as it was read: its JSON object with every member as
    /// received; `nil` for a device push.
    ///
    /// This version reads only device pushes member by member. A record of any other kind (a broadcast send, a
    /// channel operation, a later event of a push, or a kind a newer server adds) keeps its common members
    /// (`sequence`, `receivedAt`, `answeredAt`, `connection`, `remoteAddress`, `stream`) and is written back as
    /// this object; it has no request and no verdict, and no expectation or search term matches it as a push.
    public var rawJSON: JSONValue? { otherKind.map { $0.object(sequence: sequence) } }

    /// Member `name` of a record of another kind (`channel`, `operation`, `status`); `nil` for a device push.
    public func otherKindMember(_ name: String) -> JSONValue? {
        guard case .object(let members)? = otherKind?.json else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// The HTTP status answered: the response's, or a record of another kind's `status` member.
    var answeredStatus: Int? {
        response?.status ?? otherKindMember("status").flatMap { Int($0.scalarText) }
    }

    /// Whether the record is a device push (`kind` `push`): one reference compared, for the per-record counters.
    var isDevicePush: Bool { otherKind == nil }

    /// A record of `kind` this server writes (a phone state change), received at `receivedAt`, with `members`
    /// beside the common ones; the journal gives it its sequence number. A broadcast's record carries its `fanOut`,
    /// which the engine starts once the record is numbered.
    init(kind: Kind, receivedAt: Date, members: [(String, JSONValue)], fanOut: BroadcastFanOut? = nil) {
        self = Self.blank
        self.receivedAt = receivedAt
        sharedVerdict = Verdict.Shared(Verdict(outcome: .noAnswer, rule: "", explanation: ""))
        let common: [(String, JSONValue)] = [
            ("kind", .string(kind.name)), ("receivedAt", .string(Timestamp.text(receivedAt))),
        ]
        otherKind = OtherKindPart(kind: kind, json: .object(common + members), numbered: true, fanOut: fanOut)
    }

    /// The fan-out of an accepted broadcast this server just decided, to start once the record is appended; `nil`
    /// for every other record.
    var fanOut: BroadcastFanOut? { otherKind?.fanOut }

    /// The members of a record of another kind but the common ones, on one line (`channel: "c1", op: "create"`);
    /// empty for a device push.
    public var otherKindText: String {
        guard case .object(let members)? = rawJSON else { return "" }
        return members.filter { !Self.commonMembers.contains($0.0) }
            .map { "\($0.0): \($0.1.jsonText)" }.joined(separator: ", ")
    }

    /// The members every kind of record has, read back from a record of any kind.
    static let commonMembers: Set<String> = [
        "sequence", "kind", "receivedAt", "answeredAt", "connection", "remoteAddress", "stream",
    ]

    /// How records of other kinds are read and written (`JSONMapping`'s `kept`): an object whose `kind` is other
    /// than `push` is kept as received.
    static let keptKinds = JSONMapping<JournalRecord, JSONDraft>.Kept(
        claims: { object in
            guard let kind = object.first(where: { $0.0 == "kind" })?.1 else { return false }
            return kind != .string(Kind.devicePush.name)
        },
        read: otherKind(from:),
        object: { $0.rawJSON })

    /// A record of another kind from its JSON object: `nil` without a `kind` text, a whole-number `sequence` and a
    /// `receivedAt` time; the other common members read as empty when missing.
    private static func otherKind(from object: [(String, JSONValue)]) -> JournalRecord? {
        func member(_ name: String) -> JSONValue? { object.first { $0.0 == name }?.1 }
        guard let kind = member("kind")?.stringValue,
            let sequence = member("sequence").flatMap(JSONForm<UInt64>.integer(from:)),
            let receivedAt = member("receivedAt").flatMap(JSONForm<Date>.timestamp.read)
        else { return nil }
        var record = blank
        record.sequence = sequence
        record.receivedAt = receivedAt
        record.answeredAt = member("answeredAt").flatMap(JSONForm<Date>.timestamp.read)
        record.connectionID = member("connection").flatMap(JSONForm<UInt64>.integer(from:)) ?? 0
        record.remoteAddress = member("remoteAddress")?.stringValue ?? ""
        record.streamID = member("stream").flatMap(JSONForm<Int32>.integer(from:)) ?? 0
        record.sharedVerdict = Verdict.Shared(Verdict(outcome: .noAnswer, rule: "", explanation: ""))
        record.otherKind = OtherKindPart(kind: Kind(kind), json: .object(object))
        return record
    }
}

/// A record of another kind behind one reference (`JournalRecord.otherKind`): its kind and its object, as read or
/// as this server wrote it.
final class OtherKindPart: Sendable {
    /// The record's `kind`.
    let kind: JournalRecord.Kind
    /// The record's object: every member as received, or (`numbered`) every member but `sequence`.
    let json: JSONValue
    /// Whether the server made the record: its `sequence` is the journal's, written first.
    let numbered: Bool
    /// The fan-out of an accepted broadcast (the record of one this server decided).
    let fanOut: BroadcastFanOut?
    /// A broadcast's activities' outcomes, when the checker joined its `fan-out` records (`withLaterOutcomes`).
    let later: [DeviceOutcome]

    /// The part of a record of `kind` read from `json` (or made, without its sequence, when `numbered`).
    init(
        kind: JournalRecord.Kind, json: JSONValue, numbered: Bool = false, fanOut: BroadcastFanOut? = nil,
        later: [DeviceOutcome] = []
    ) {
        self.later = later
        self.fanOut = fanOut
        self.kind = kind
        self.json = json
        self.numbered = numbered
    }

    /// The record's object: as read, or with `sequence` first for a record this server made.
    func object(sequence: UInt64) -> JSONValue {
        guard numbered, case .object(let members) = json else { return json }
        return .object([("sequence", .number(String(sequence)))] + members)
    }
}
