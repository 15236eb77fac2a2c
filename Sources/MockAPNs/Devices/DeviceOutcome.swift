/// What the simulated phone did with a push APNs accepted: the journal record's `device` part, one vocabulary for
/// every push type (phone.md §5).
///
/// APNs's 200 means "accepted", not "the person saw it". The outcome says what the phone would have done (`kind`),
/// which rule decided (`rule`, with every rule that fired in `trace`), and why in plain words (`reason`).
///
/// Made on every push: its optional properties are spelled `Optional<…>`, never `T?`, whose implicit `nil` made
/// Swift build the value aside and copy it out (`HotPathOptionalsTests` says why).
public struct DeviceOutcome: Sendable, Hashable {
    /// What happened to the push: APNs's storage, then the phone.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A `start` started a new activity (and issued its update token).
        case started
        /// An `update` (or `start` content) changed the activity; a badge-only push set the badge.
        case applied
        /// An `end` ended the activity.
        case ended
        /// The phone ignored it: an older timestamp, or the activity had ended.
        case ignored
        /// The phone dropped it: it does not decode, is too large, lacks something the phone needs.
        case dropped
        /// The phone's budget for such pushes is spent; never delivered.
        case throttled
        /// Held by APNs for an offline or power-restricted phone.
        case stored
        /// Handed over later, from storage.
        case delivered
        /// Superseded by a later push: in storage, on the list by a collapse, or held on the phone.
        case replaced
        /// Its expiration passed undelivered.
        case expired
        /// Dropped by APNs before the phone: app uninstalled, notifications disabled.
        case discarded
        /// Presented now: banner, Lock Screen, sound, badge, as settings and options allow.
        case shown
        /// Notification Center only: no banner, sound or screen wake.
        case shownQuietly
        /// Delivered, but kept back silently by a Focus or the Scheduled Summary.
        case withheld
        /// The phone has it and shows nothing.
        case notShown
        /// The app or its extension ran code for it: launched, woken, or called in the foreground.
        case launched
        /// Kept on the phone, for the app later.
        case held
        /// Not launched or woken; the push is gone.
        case notLaunched
        /// A VoIP push reported as a call.
        case reported
        /// The app or extension was killed for how it handled the push.
        case terminated

        /// The kinds a Live Activity push can have (an activity counts its pushes by these).
        public static let activityKinds: [Kind] = [.started, .applied, .ended, .ignored, .dropped, .throttled]

        /// Whether the push did what the provider meant: shown, applied, launched, reported, started or ended.
        /// Summaries and tables say why only for the other kinds.
        public var isSuccess: Bool {
            switch self {
            case .shown, .applied, .launched, .reported, .started, .ended: true
            default: false
            }
        }
    }

    /// What happened.
    public var kind: Kind
    /// The rule that set the kind or, when the kind is the push type's plain result, the first modifier with a
    /// warning or a collapse; `nil` on records written before rules existed.
    public var rule: Optional<DeviceRule>
    /// Why, in plain words (`activity ended`, `content-state.status: expected String, found number`).
    public var reason: Optional<String>
    /// Every rule that fired, in order: the deciding rule and the modifiers (`sound-not-bundled`).
    public var trace: [DeviceRule]
    /// The sequence number of the other push involved (the one a collapse replaced).
    public var related: Optional<UInt64>
    /// The activity it reached or started.
    public var activityID: Optional<String>
    /// The update token a `start` issued.
    public var updateToken: Optional<String>
    /// The person an alert is from when the service extension made it a communication notification (phone.md §4);
    /// `nil` for an ordinary notification and every other push.
    public var communicationSender: Optional<String>
    /// Likely provider or app bugs (a date decoding to 2057, a sound the app does not bundle).
    public var warnings: [String]
    /// Facts worth knowing that are not mistakes (an equal timestamp, an open setting that decided).
    public var notes: [String]

    /// An outcome of `kind` decided by `rule`; `trace` defaults to the rule alone.
    public init(
        _ kind: Kind, rule: DeviceRule? = nil, reason: String? = nil, trace: [DeviceRule]? = nil,
        related: UInt64? = nil, activityID: String? = nil, updateToken: String? = nil, warnings: [String] = [],
        notes: [String] = [], communicationSender: String? = nil
    ) {
        self.kind = kind
        self.rule = rule
        self.reason = reason
        self.trace = trace ?? rule.map { [$0] } ?? []
        self.related = related
        self.activityID = activityID
        self.updateToken = updateToken
        self.warnings = warnings
        self.notes = notes
        self.communicationSender = communicationSender
    }

    /// `applied`, or `dropped: content-state.status: expected String, found number`.
    public var summary: String {
        reason.map { "\(kind.rawValue): \($0)" } ?? kind.rawValue
    }

    /// Whether `rule` fired for this push: it decided, or is in `trace`.
    public func fired(_ rule: DeviceRule) -> Bool {
        self.rule == rule || trace.contains(rule)
    }
}

extension DeviceOutcome: JSONMapped {
    /// The outcome as JSON: `outcome`, `rule`, `reason`, `trace`, `related`, `activity`, `updateToken`, `warnings`,
    /// `notes`, always in this order (`null` or `[]` when empty), then `communication` (`{"sender": "Mum"}`) for a
    /// communication notification only; read back `nil` when `outcome` is missing or unknown. A rule id this
    /// version does not know reads as a rule of that id.
    public static let jsonMapping = JSONMapping<DeviceOutcome, DeviceOutcome>(
        DeviceOutcome(.applied),
        [
            .member("outcome", \.kind, .rawValue, required: true),
            .member("rule", \.rule, .optional(.deviceRule)),
            .member("reason", \.reason, .optional(.string)),
            .member("trace", \.trace, .compactArray(.deviceRule)),
            .member("related", \.related, .optional(.integer)),
            .member("activity", \.activityID, .optional(.string)),
            .member("updateToken", \.updateToken, .optional(.string)),
            .member("warnings", \.warnings, .compactArray(.string)),
            .member("notes", \.notes, .compactArray(.string)),
            .member("communication", \.communicationSender, .omittedWhenNil(.communicationSender)),
        ])
}

extension JSONForm where T == String {
    /// The person a communication notification is from, as `{"sender": "Mum"}`.
    static var communicationSender: JSONForm {
        JSONForm(
            write: { .object([("sender", .string($0))]) },
            read: { $0["sender"]?.stringValue })
    }
}

extension JSONForm where T == DeviceRule {
    /// A rule as its id.
    static var deviceRule: JSONForm {
        JSONForm(write: { .string($0.id) }, read: { $0.stringValue.map(DeviceRule.read) })
    }
}
