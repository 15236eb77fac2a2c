import Foundation

/// An activity as JSON (`GET /v1/activities`), and back (the HTTP client). Dates are ISO 8601 with milliseconds
/// in UTC, as records write them (`Timestamp`); `timestamp` stays the push's own number of seconds since 1970.
extension ActivitySnapshot {
    /// Every member, always present and in this order (`null` when unset): id, attributesType, state,
    /// attributes, contentState, updateToken, pushToStartToken, startedByPush, startedAt, updatedAt, timestamp, staleDate,
    /// dismissalDate, relevanceScore, endedAt, dismissedAt, endsAt, dismissesAt, outcomes, history, historyDropped,
    /// tokenUploads.
    public var json: JSONValue {
        let activity = self.activity
        let counts = outcomeCounts
        return .object([
            ("id", .string(activity.id)),
            ("attributesType", .string(activity.attributesType)),
            ("state", .string(state.rawValue)),
            ("attributes", activity.attributes),
            ("contentState", activity.contentState),
            ("updateToken", .string(activity.updateToken)),
            ("pushToStartToken", activity.pushToStartToken.map { .string($0) } ?? .null),
            ("startedByPush", .bool(activity.startedByPush)),
            ("startedAt", Self.date(activity.startedAt)),
            ("updatedAt", Self.date(activity.updatedAt)),
            // A local start has had no push, so no timestamp yet: any update's applies.
            ("timestamp", activity.timestamp == 0 ? .null : Self.number(activity.timestamp)),
            ("staleDate", Self.date(activity.staleDate)),
            ("dismissalDate", Self.date(activity.dismissalDate)),
            ("relevanceScore", activity.relevanceScore.map(Self.number) ?? .null),
            ("endedAt", Self.date(activity.endedAt)),
            ("dismissedAt", Self.date(activity.dismissedAt)),
            ("endsAt", Self.date(endsAt)),
            ("dismissesAt", Self.date(dismissesAt)),
            ("outcomes", .object(DeviceOutcome.Kind.allCases.map { ($0.rawValue, .number(String(counts[$0] ?? 0))) })),
            ("history", .array(activity.history.map(\.json))),
            ("historyDropped", .number(String(activity.historyDropped))),
            ("tokenUploads", .array(activity.tokenUploads.map(\.json))),
        ])
    }

    /// Reads a snapshot back from `json`; `nil` when a required member is missing or malformed.
    public init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let type = json["attributesType"]?.stringValue,
            let state = json["state"]?.stringValue.flatMap(ActivityState.init(rawValue:)),
            let token = json["updateToken"]?.stringValue, let startedAt = Self.date(json["startedAt"]),
            let endsAt = Self.date(json["endsAt"]), let dismissesAt = Self.date(json["dismissesAt"]),
            let history = json["history"]?.arrayValue
        else { return nil }
        var pushes = [ActivityPush]()
        for element in history {
            guard let push = ActivityPush(json: element) else { return nil }
            pushes.append(push)
        }
        var activity = LiveActivity(
            id: id, attributesType: type, attributes: json["attributes"] ?? .null,
            contentState: json["contentState"] ?? .null, updateToken: token,
            pushToStartToken: json["pushToStartToken"]?.stringValue, startedAt: startedAt,
            timestamp: json["timestamp"]?.doubleValue ?? 0, staleDate: Self.date(json["staleDate"]),
            relevanceScore: json["relevanceScore"]?.doubleValue, history: pushes)
        activity.updatedAt = Self.date(json["updatedAt"]) ?? startedAt
        activity.dismissalDate = Self.date(json["dismissalDate"])
        activity.endedAt = Self.date(json["endedAt"])
        activity.dismissedAt = Self.date(json["dismissedAt"])
        activity.startedByPush = json["startedByPush"] == .bool(true)
        activity.historyDropped = json["historyDropped"]?.unsignedValue.map { Int(clamping: $0) } ?? 0
        if let outcomes = json["outcomes"] {
            for kind in DeviceOutcome.Kind.allCases {
                activity.outcomeCounts[kind] = outcomes[kind.rawValue]?.unsignedValue.map { Int(clamping: $0) } ?? 0
            }
        }
        activity.tokenUploads = (json["tokenUploads"]?.arrayValue ?? []).compactMap {
            TokenUpload(json: $0, activityID: id)
        }
        self.init(activity: activity, state: state, endsAt: endsAt, dismissesAt: dismissesAt)
    }

    static func date(_ date: Date?) -> JSONValue {
        date.map { .string(Timestamp.text($0)) } ?? .null
    }

    static func date(_ json: JSONValue?) -> Date? {
        json?.stringValue.flatMap(Timestamp.date(fromText:))
    }

    /// A number as a push would write it: whole seconds without a fraction.
    static func number(_ value: Double) -> JSONValue {
        .number(ActivityPushFacts.text(value))
    }
}

extension ActivityPush {
    /// `{"at", "sequence", "event", "outcome", "reason", "priority"}`, in this order (`null` when unset).
    public var json: JSONValue {
        .object([
            ("at", .string(Timestamp.text(at))),
            ("sequence", sequence.map { .number(String($0)) } ?? .null),
            ("event", .string(event)),
            ("outcome", .string(outcome.rawValue)),
            ("reason", reason.map { .string($0) } ?? .null),
            ("priority", priority.map { .number(String($0)) } ?? .null),
        ])
    }

    /// Reads a push back from `json`; `nil` when `at`, `event` or `outcome` is missing or malformed.
    public init?(json: JSONValue) {
        guard let at = ActivitySnapshot.date(json["at"]), let event = json["event"]?.stringValue,
            let outcome = json["outcome"]?.stringValue.flatMap(DeviceOutcome.Kind.init(rawValue:))
        else { return nil }
        self.init(
            at: at, sequence: json["sequence"]?.unsignedValue, event: event, outcome: outcome,
            reason: json["reason"]?.stringValue, priority: json["priority"]?.doubleValue.map { Int($0) })
    }
}
