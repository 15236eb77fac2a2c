/// One change of a Live Activity on the simulated phone, as `GET /v1/activities/stream` sends it.
public struct ActivityChange: Sendable, Hashable {
    /// What happened to the activity.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// It started: a push-to-start `start`, or a local start as the app would.
        case started
        /// A push reached it (`outcome` says what the phone did: applied, ended, ignored, ...).
        case pushed
        /// Its update token rotated (`POST /v1/activities/{id}/rotate-token`).
        case rotated
        /// The person swiped it away (`POST /v1/activities/{id}/dismiss`).
        case dismissed
    }

    /// Numbered from 1 in the order the registry made the changes (the event's `id`).
    public var sequence: UInt64
    public var kind: Kind
    /// What the phone did with the push, for `pushed`.
    public var outcome: DeviceOutcome.Kind?
    /// The activity after the change, at the mock's clock then.
    public var activity: ActivitySnapshot

    public init(sequence: UInt64, kind: Kind, outcome: DeviceOutcome.Kind? = nil, activity: ActivitySnapshot) {
        self.sequence = sequence
        self.kind = kind
        self.outcome = outcome
        self.activity = activity
    }
}

extension ActivityChange: JSONMapped {
    /// `{"sequence", "change", "outcome", "activity"}`, in this order; read back `nil` when a part is missing or
    /// unknown.
    public static let jsonMapping = JSONMapping<ActivityChange, ActivityChange>(
        ActivityChange(sequence: 0, kind: .started, activity: ActivitySnapshot.blank),
        [
            .member("sequence", \.sequence, .integer, required: true),
            .member("change", \.kind, .rawValue, required: true),
            .member("outcome", \.outcome, .optional(.rawValue)),
            .member("activity", \.activity, .object, required: true),
        ])
}
