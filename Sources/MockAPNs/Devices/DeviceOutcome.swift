/// What the simulated phone did with a push APNs accepted: the journal record's `device` part.
///
/// "APNs answers 200 to almost every Live Activity mistake; the phone then silently drops the push"
/// (live-activities.md). The outcome says what the phone would have done, and why, in plain words.
public struct DeviceOutcome: Sendable, Hashable {
    /// What the phone did.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A `start` started a new activity (and issued its update token).
        case started
        /// An `update` (or `start` content) changed the activity.
        case applied
        /// An `end` ended the activity.
        case ended
        /// The phone ignored it: an older timestamp, or the activity had ended.
        case ignored
        /// The phone dropped it: it does not decode, is too large, lacks something the phone needs.
        case dropped
        /// The phone's budget for such pushes is spent.
        case throttled
    }

    public var kind: Kind
    /// Why, in plain words (`activity ended`, `content-state.status: expected String, found number`).
    public var reason: String?
    /// The activity it reached or started.
    public var activityID: String?
    /// The update token a `start` issued.
    public var updateToken: String?
    /// Applied, but probably not as meant (a date decoding to 2057).
    public var warnings: [String]
    /// Facts worth knowing that are not mistakes (an equal timestamp, a start without `input-push-token`).
    public var notes: [String]

    public init(
        _ kind: Kind, reason: String? = nil, activityID: String? = nil, updateToken: String? = nil,
        warnings: [String] = [], notes: [String] = []
    ) {
        self.kind = kind
        self.reason = reason
        self.activityID = activityID
        self.updateToken = updateToken
        self.warnings = warnings
        self.notes = notes
    }

    /// `applied`, or `dropped: content-state.status: expected String, found number`.
    public var summary: String {
        reason.map { "\(kind.rawValue): \($0)" } ?? kind.rawValue
    }
}

extension DeviceOutcome: JSONMapped {
    /// The outcome as JSON: `outcome`, `reason`, `activity`, `updateToken`, `warnings`, `notes`, always in this
    /// order (`null` or `[]` when empty); read back `nil` when `outcome` is missing or unknown.
    public static let jsonMapping = JSONMapping<DeviceOutcome, DeviceOutcome>(
        DeviceOutcome(.applied),
        [
            .member("outcome", \.kind, .rawValue, required: true),
            .member("reason", \.reason, .optional(.string)),
            .member("activity", \.activityID, .optional(.string)),
            .member("updateToken", \.updateToken, .optional(.string)),
            .member("warnings", \.warnings, .compactArray(.string)),
            .member("notes", \.notes, .compactArray(.string)),
        ])
}
