import Foundation

extension JournalRecord {
    /// A later event of a push (phone.md §5, "Events") as the `device-event` record the journal appends, observed at
    /// `receivedAt`: the common members, then `push` (the sequence of the push it is about), `at` (when it happened
    /// on the mock's clock), `event` (`delivered`, `replaced`, `expired`), `rule`, `reason`, `related` (the other
    /// push) and, for a delivery, `device`: what the phone then did with the push (a full `DeviceOutcome`).
    init(event: DeviceEvent, receivedAt: Date) {
        func number(_ value: UInt64?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
        var members: [(String, JSONValue)] = [
            ("push", number(event.push.sequence)), ("at", .string(Timestamp.text(event.at))),
            ("event", .string(event.event.kind.rawValue)), ("rule", event.event.rule.map { .string($0.id) } ?? .null),
            ("reason", event.event.reason.map(JSONValue.string) ?? .null),
            ("related", number(event.related?.sequence ?? event.event.related)),
        ]
        if let device = event.device { members.append(("device", device.json)) }
        self.init(kind: .deviceEvent, receivedAt: receivedAt, members: members)
    }

    /// What a `device-event` record says, read from its members; `nil` for a record of any other kind or one that
    /// names no push.
    public var deviceEvent: DeviceEventRecord? {
        guard kind == .deviceEvent, case .object(let members)? = rawJSON else { return nil }
        func member(_ name: String) -> JSONValue? { members.first { $0.0 == name }?.1 }
        guard let push = member("push").flatMap(JSONForm<UInt64>.integer(from:)),
            let kind = member("event")?.stringValue.flatMap(DeviceOutcome.Kind.init(rawValue:))
        else { return nil }
        let event = DeviceOutcome(
            kind, rule: member("rule")?.stringValue.map(DeviceRule.read), reason: member("reason")?.stringValue,
            related: member("related").flatMap(JSONForm<UInt64>.integer(from:)))
        return DeviceEventRecord(
            sequence: sequence, push: push,
            at: member("at").flatMap(JSONForm<Date>.timestamp.read) ?? receivedAt, event: event,
            device: member("device").flatMap(DeviceOutcome.init(json:)))
    }
}

extension [JournalRecord] {
    /// The records with each push joined with the outcomes of its `device-event` records among them, and each
    /// broadcast with its activities' outcomes from its `fan-out` records (`JournalRecord.laterOutcomes`); the same
    /// array when there are none.
    func joiningDeviceEvents() -> [JournalRecord] {
        var later: [UInt64: [DeviceOutcome]] = [:]
        for record in self where record.kind == .deviceEvent {
            if let event = record.deviceEvent { later[event.push, default: []].append(event.outcome) }
        }
        // A broadcast's fan-outs: each activity's outcome (issue 24).
        for record in self where record.kind == .fanOut {
            if let fanOut = record.fanOutOutcomes { later[fanOut.broadcast, default: []] += fanOut.outcomes }
        }
        guard !later.isEmpty else { return self }
        return map { record in later[record.sequence].map(record.withLaterOutcomes) ?? record }
    }
}

/// A `device-event` record as read: which push, when, what happened, and what the phone did when it was delivered.
public struct DeviceEventRecord: Sendable, Hashable {
    /// The event record's own sequence number.
    public var sequence: UInt64
    /// The sequence number of the push it is about.
    public var push: UInt64
    /// When it happened, on the mock's clock.
    public var at: Date
    /// `delivered`, `replaced` or `expired`, with its rule, reason and `related` push.
    public var event: DeviceOutcome
    /// What the phone did with the push once delivered; `nil` for other events.
    public var device: DeviceOutcome?

    /// The push's outcome after this event: what the phone did when it was delivered, else the event itself.
    public var outcome: DeviceOutcome { device ?? event }

    /// `{"sequence", "at", "event", "rule", "reason", "related", "device"}`: how a push's record lists it.
    public var json: JSONValue {
        .object([
            ("sequence", .number(String(sequence))), ("at", .string(Timestamp.text(at))),
            ("event", .string(event.kind.rawValue)), ("rule", event.rule.map { .string($0.id) } ?? .null),
            ("reason", event.reason.map(JSONValue.string) ?? .null),
            ("related", event.related.map { .number(String($0)) } ?? .null), ("device", device?.json ?? .null),
        ])
    }
}
