import Foundation

/// An activity as JSON (`GET /v1/activities`), and back (the HTTP client). Dates are ISO 8601 with milliseconds
/// in UTC, as records write them (`Timestamp`); `timestamp` stays the push's own number of seconds since 1970.
extension ActivitySnapshot: JSONMapped {
    /// Every member, always present and in this order (`null` when unset); read back `nil` when a required member
    /// is missing or malformed.
    public static let jsonMapping = JSONMapping<ActivitySnapshot, ActivitySnapshot>(
        blank,
        [
            .member("id", \.activity.id, .string, required: true),
            .member("attributesType", \.activity.attributesType, .string, required: true),
            .member("state", \.state, .rawValue, required: true),
            .member("attributes", \.activity.attributes, .value),
            .member("contentState", \.activity.contentState, .value),
            .member("updateToken", \.activity.updateToken, .string, required: true),
            .member("pushToStartToken", \.activity.pushToStartToken, .optional(.string)),
            .member("startedByPush", \.activity.startedByPush, .bool),
            .member("channel", \.activity.channel, .omittedWhenNil(.string)),
            .member("startedAt", \.activity.startedAt, .timestamp, required: true),
            .custom("updatedAt", write: { .string(Timestamp.text($0.activity.updatedAt)) }) { draft, json in
                // Missing, it is the start: nothing has changed the activity since.
                draft.activity.updatedAt = json.flatMap(JSONForm.timestamp.read) ?? draft.activity.startedAt
                return true
            },
            // A local start has had no push, so no timestamp yet (0): any update's applies.
            .custom("timestamp", write: { $0.activity.timestamp == 0 ? .null : pushNumber($0.activity.timestamp) }) {
                draft, json in
                draft.activity.timestamp = json?.doubleValue ?? 0
                return true
            },
            .member("staleDate", \.activity.staleDate, .optional(.timestamp)),
            .member("dismissalDate", \.activity.dismissalDate, .optional(.timestamp)),
            .member("relevanceScore", \.activity.relevanceScore, .optional(.pushNumber)),
            .member("endedAt", \.activity.endedAt, .optional(.timestamp)),
            .member("dismissedAt", \.activity.dismissedAt, .optional(.timestamp)),
            .member("endsAt", \.endsAt, .timestamp, required: true),
            .member("dismissesAt", \.dismissesAt, .timestamp, required: true),
            .custom("outcomes", write: { outcomes($0.activity.outcomeCounts) }) { draft, json in
                guard let json else { return true }
                for kind in DeviceOutcome.Kind.activityKinds {
                    draft.activity.outcomeCounts[kind] = json[kind.rawValue].flatMap(JSONForm.integer.read) ?? 0
                }
                return true
            },
            .member("history", \.activity.history, .array(.object), required: true),
            .member("historyDropped", \.activity.historyDropped, .integer),
            .custom("tokenUploads", write: { .array($0.activity.tokenUploads.map(\.json)) }) { draft, json in
                draft.activity.tokenUploads = (json?.arrayValue ?? []).compactMap {
                    TokenUpload(json: $0, activityID: draft.activity.id)
                }
                return true
            },
        ])

    /// What reading starts from: every member unset.
    static var blank: ActivitySnapshot {
        let activity = LiveActivity(
            id: "", attributesType: "", attributes: .null, contentState: .null, updateToken: "",
            pushToStartToken: nil, startedAt: .distantPast, timestamp: 0)
        return ActivitySnapshot(activity: activity, state: .active, endsAt: .distantPast, dismissesAt: .distantPast)
    }

    /// A number as a push would write it: whole seconds without a fraction.
    static func pushNumber(_ value: Double) -> JSONValue {
        .number(ActivityPushFacts.text(value))
    }

    /// The count of each outcome a Live Activity push can have, in `DeviceOutcome.Kind.activityKinds`' order.
    private static func outcomes(_ counts: [DeviceOutcome.Kind: Int]) -> JSONValue {
        .object(DeviceOutcome.Kind.activityKinds.map { ($0.rawValue, .number(String(counts[$0] ?? 0))) })
    }
}

extension ActivityPush: JSONMapped {
    /// `{"at", "sequence", "event", "outcome", "reason", "priority", "channel"}`, in this order (`null` when unset;
    /// `channel`, the channel of a broadcast, only when it came by one); read back `nil` when `at`, `event` or `outcome` is missing or
    /// malformed.
    public static let jsonMapping = JSONMapping<ActivityPush, ActivityPush>(
        ActivityPush(at: .distantPast, sequence: nil, event: "", outcome: .applied),
        [
            .member("at", \.at, .timestamp, required: true),
            .member("sequence", \.sequence, .optional(.integer)),
            .member("event", \.event, .string, required: true),
            .member("outcome", \.outcome, .rawValue, required: true),
            .member("reason", \.reason, .optional(.string)),
            .member("priority", \.priority, .optional(.integer)),
            .member("channel", \.channel, .omittedWhenNil(.string)),
        ])
}

extension JSONForm where T == Double {
    /// A number as a push would write it (`ActivitySnapshot.pushNumber`): whole seconds without a fraction.
    static var pushNumber: JSONForm {
        JSONForm(write: { ActivitySnapshot.pushNumber($0) }, read: { $0.doubleValue })
    }
}
