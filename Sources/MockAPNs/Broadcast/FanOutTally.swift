import Foundation

/// What one fan-out did: how many activities it reached, and their outcomes counted by kind and by rule, with the
/// first activities' outcomes listed. The `fan-out` record the journal appends once a broadcast has reached every
/// subscriber (docs/control-api.md, "The fan-out record").
struct FanOutTally: Sendable {
    /// The broadcast's record.
    var broadcast: UInt64?
    /// The channel it went to.
    var channel: BroadcastChannel
    /// When the broadcast was received (the activities judged it at this time), or the stored message handed to a
    /// later subscriber.
    var at: Date
    /// Whether it is a policy-1 channel's stored message handed to an activity that subscribed later.
    var stored: Bool
    /// How many activities it reached.
    var subscribers = 0
    /// Outcomes by kind: every Live Activity kind present, zero when none.
    var outcomes: [DeviceOutcome.Kind: Int]
    /// Outcomes by kind and deciding rule, in the order each pair first came.
    var groups: [(kind: DeviceOutcome.Kind, rule: String, count: Int)] = []
    /// The first `listedLimit` activities and what each did.
    var listed: [DeviceOutcome] = []

    /// The most activities a record lists one by one (`subscribers` and the counts cover them all).
    static let listedLimit = 100
    /// The most subscribers a `fan-out` record read back (`fanOutOutcomes`) counts one by one: ten times the
    /// 10,000 of bench/broadcast_fanout.py, so that a hand-edited line cannot make a reader allocate without bound.
    static let readLimit = 100_000

    /// An empty tally of `broadcast` to `channel` at `at`.
    init(broadcast: UInt64?, channel: BroadcastChannel, at: Date, stored: Bool) {
        self.broadcast = broadcast
        self.channel = channel
        self.at = at
        self.stored = stored
        outcomes = Dictionary(uniqueKeysWithValues: DeviceOutcome.Kind.activityKinds.map { ($0, 0) })
    }

    /// Counts `results`, one per activity reached.
    mutating func count(_ results: [DeviceOutcome]) {
        var index = [String: Int]()
        for (position, group) in groups.enumerated() { index[group.kind.rawValue + " " + group.rule] = position }
        for outcome in results {
            subscribers += 1
            outcomes[outcome.kind, default: 0] += 1
            let rule = outcome.rule?.id ?? outcome.kind.rawValue
            let key = outcome.kind.rawValue + " " + rule
            if let position = index[key] {
                groups[position].count += 1
            } else {
                index[key] = groups.count
                groups.append((outcome.kind, rule, 1))
            }
            if listed.count < Self.listedLimit { listed.append(outcome) }
        }
    }

    /// `3 subscribers: 2 applied, 1 ignored`.
    var summary: String {
        let counted = DeviceOutcome.Kind.activityKinds.compactMap { kind -> String? in
            let count = outcomes[kind] ?? 0
            return count == 0 ? nil : "\(count) \(kind.rawValue)"
        }
        let head = "\(subscribers) subscriber\(subscribers == 1 ? "" : "s")"
        return counted.isEmpty ? head : head + ": " + counted.joined(separator: ", ")
    }

    /// The `fan-out` record, observed at `receivedAt`: `broadcast` (the broadcast record's sequence), `at`,
    /// `channel`, `app`, `environment`, `stored`, `subscribers`, `outcomes` (by kind), `rules` (by deciding rule),
    /// `counts` (by both: `outcome`, `rule`, `count`), `summary`, and `activities` (the first `listedLimit`:
    /// `activity`, `outcome`, `rule`, `reason`, `warnings`, `notes`).
    func record(receivedAt: Date) -> JournalRecord {
        let activities = listed.map { outcome -> JSONValue in
            .object([
                ("activity", outcome.activityID.map(JSONValue.string) ?? .null),
                ("outcome", .string(outcome.kind.rawValue)),
                ("rule", outcome.rule.map { .string($0.id) } ?? .null),
                ("reason", outcome.reason.map(JSONValue.string) ?? .null),
                ("warnings", .array(outcome.warnings.map(JSONValue.string))),
                ("notes", .array(outcome.notes.map(JSONValue.string))),
            ])
        }
        var rules: [(rule: String, count: Int)] = []
        for group in groups {
            if let position = rules.firstIndex(where: { $0.rule == group.rule }) {
                rules[position].count += group.count
            } else {
                rules.append((group.rule, group.count))
            }
        }
        let counts = groups.map { group -> JSONValue in
            .object([
                ("outcome", .string(group.kind.rawValue)), ("rule", .string(group.rule)),
                ("count", .number(String(group.count))),
            ])
        }
        let kinds = DeviceOutcome.Kind.activityKinds.map { ($0.rawValue, JSONValue.number(String(outcomes[$0] ?? 0))) }
        let members: [(String, JSONValue)] = [
            ("broadcast", broadcast.map { .number(String($0)) } ?? .null),
            ("at", .string(Timestamp.text(at))),
            ("channel", .string(channel.id)),
            ("app", .string(channel.bundleID)),
            ("environment", .string(channel.environment.rawValue)),
            ("stored", .bool(stored)),
            ("subscribers", .number(String(subscribers))),
            ("outcomes", .object(kinds)),
            ("rules", .object(rules.map { ($0.rule, .number(String($0.count))) })),
            ("counts", .array(counts)),
            ("summary", .string(summary)),
            ("activities", .array(activities)),
        ]
        return JournalRecord(kind: .fanOut, receivedAt: receivedAt, members: members)
    }
}

extension JournalRecord {
    /// What a `fan-out` record says each activity did, for the checker's `device:` (`joiningDeviceEvents`): the
    /// broadcast it is about, and one outcome per activity reached. The listed activities come as recorded; the
    /// others beyond `FanOutTally.listedLimit` by their kind and rule only (`counts`), without reason or warnings.
    /// `nil` for any other record.
    var fanOutOutcomes: (broadcast: UInt64, outcomes: [DeviceOutcome])? {
        guard kind == .fanOut, case .object(let members)? = rawJSON else { return nil }
        func member(_ name: String) -> JSONValue? { members.first { $0.0 == name }?.1 }
        guard let broadcast = member("broadcast").flatMap(JSONForm<UInt64>.integer(from:)) else { return nil }
        var outcomes: [DeviceOutcome] = []
        var listed: [String: Int] = [:]
        for activity in member("activities")?.arrayValue ?? [] {
            guard let kind = activity["outcome"]?.stringValue.flatMap(DeviceOutcome.Kind.init(rawValue:)) else {
                continue
            }
            let rule = activity["rule"]?.stringValue
            outcomes.append(
                DeviceOutcome(
                    kind, rule: rule.map(DeviceRule.read), reason: activity["reason"]?.stringValue,
                    activityID: activity["activity"]?.stringValue,
                    warnings: activity["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                    notes: activity["notes"]?.arrayValue?.compactMap(\.stringValue) ?? []))
            listed[kind.rawValue + " " + (rule ?? kind.rawValue), default: 0] += 1
        }
        // At most the subscribers the record counts, never more than `readLimit`: a hand-edited line can make
        // the checker neither trap nor allocate without bound.
        let counted = member("subscribers").flatMap(JSONForm<Int>.integer(from:)) ?? 0
        let subscribers = min(max(counted, 0), FanOutTally.readLimit)
        for group in member("counts")?.arrayValue ?? [] {
            guard let kind = group["outcome"]?.stringValue.flatMap(DeviceOutcome.Kind.init(rawValue:)),
                let rule = group["rule"]?.stringValue,
                let count = group["count"].flatMap(JSONForm<Int>.integer(from:)), count > 0
            else { continue }
            let rest = min(count - listed[kind.rawValue + " " + rule, default: 0], subscribers - outcomes.count)
            guard rest > 0 else { continue }
            outcomes += repeatElement(DeviceOutcome(kind, rule: DeviceRule.read(rule)), count: rest)
        }
        return (broadcast, outcomes)
    }
}
