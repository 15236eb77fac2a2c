import Foundation

/// One test on a recorded push: a field of what was sent, answered or done (`status:4xx`), or a word of its payload
/// (`"order ready"`), possibly negated (`-reason:BadDeviceToken`).
///
/// The record part of `RuleMatch`: `JournalQuery`'s filters and the search text (`q=`, `requests --query`) become
/// terms, so the journal's filters, waits, streams and the expectations test a record in this one place. A term
/// needs the record, so a request not yet decided (a scripted rule's match) never passes one.
public struct MatchTerm: Sendable, Hashable {
    /// What a term tests.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// The device token from the path (compared case-insensitively).
        case token
        /// `apns-topic` as sent.
        case topic
        /// The push type the request was taken as (`alert`, `liveactivity`, ...).
        case type
        /// `apns-priority` as sent (a push without the header has none).
        case priority
        /// The HTTP status answered: `410`, or a class such as `4xx`.
        case status
        /// The rejection reason answered.
        case reason
        /// The rule that decided: a check's id (`device-unregistered`), `accepted`, or a scripted rule's name.
        case rule
        /// The `apns-id` sent or answered (compared case-insensitively).
        case apnsID = "apns-id"
        /// `apns-collapse-id` as sent.
        case collapseID = "collapse-id"
        /// The connection's number.
        case connection
        /// Whether the push was accepted: `true` or `false`.
        case accepted
        /// What the simulated phone did (`shown`, `applied`, `dropped`, ...); a push that reached no phone has none.
        case device
        /// A rule of the simulated phone that decided or fired for the push (`background-force-quit`,
        /// `sound-not-bundled`): its `device` part's `rule` or one in its `trace`.
        case deviceRule = "device-rule"
        /// Whether the phone's outcome carries warnings: `some` or `none`.
        case warnings
        /// The Live Activity the push reached or started: its id, or the start of it (at least
        /// `ActivityRegistry.minimumIDPrefix` characters, as `mock-apns activities` prints it), ignoring case.
        case activity
        /// A Live Activity push's `aps.event`: `start`, `update` or `end`.
        case event
        /// Received at or after a time (`TimePoint`: `16:10`, an ISO 8601 time, `-5m`).
        case after
        /// Received before a time (`TimePoint`).
        case before
        /// What the record is of (`JournalRecord.Kind`): `push` for a device push, or a kind a newer server records.
        case kind
        /// The broadcast channel a `broadcast` or `channel` record is about: its id, compared exactly (base64 is
        /// case-sensitive); a device push has none.
        case channel
        /// What a `channel` record did: `create`, `read`, `delete` or `list` (`ChannelOperation`).
        case operation
        /// A word or phrase of the payload (compared ignoring case): a search's free words.
        case text
    }

    /// The field tested.
    public var field: Field
    /// What it must be, as checked by `MatchTerm(_:_:negated:)`: `4xx`, `410`, `BadDeviceToken`, `order ready`.
    public var value: String
    /// Whether the term passes when the field is anything but `value` (`-` in the search text).
    public var negated: Bool
    /// For `after` and `before`: the time `value` reads as, fixed to a date by `resolvingTime(now:)` (a server does
    /// it once per query, with its own clock, so `-5m` is one instant for every record compared).
    public private(set) var time: TimePoint?

    /// A term on `field` after `value` was checked (and made canonical: a token in lower case, a number without
    /// leading zeros); the problem in words, for messages, when `value` is not one `field` can have.
    public static func checked(_ field: Field, _ value: String, negated: Bool = false) -> Result<MatchTerm, Problem> {
        check(field, value).map { MatchTerm(field: field, value: $0, negated: negated) }
    }

    /// A term of a value already checked (`checked(_:_:negated:)` checks one that a person typed).
    init(field: Field, value: String, negated: Bool = false) {
        self.field = field
        self.value = value
        self.negated = negated
        if field == .after || field == .before { time = try? TimePoint.parse(value).get() }
    }

    /// The term with its time (`after`, `before`) fixed to a date against `now`; any other term as it is.
    public func resolvingTime(now: Date) -> MatchTerm {
        var term = self
        term.time = time?.resolved(now: now)
        return term
    }

    /// What is wrong with a value a person gave a field: `status must be an HTTP status …; got '9'`.
    public struct Problem: Error, Sendable, Hashable {
        /// The sentence, naming the field first.
        public var message: String
    }

    /// Whether `record` passes: its field is `value` (contains it, for `text`), or is not, when negated.
    public func passes(_ record: JournalRecord) -> Bool {
        fieldIs(record) != negated
    }

    private func fieldIs(_ record: JournalRecord) -> Bool {
        // A record of another kind has no push fields: only its kind, connection, time, answer and channel match.
        if record.otherKind != nil, !Self.otherKindFields.contains(field) { return false }
        switch field {
        case .token: return record.deviceToken.map { Self.equalIgnoringCase($0, value) } ?? false
        case .topic: return record.topic == value
        case .type: return record.pushType == value
        case .priority: return record.request.fields.priority == value
        case .status:
            guard let status = record.answeredStatus else { return false }
            guard value.hasSuffix("xx"), let digit = value.first?.wholeNumberValue else {
                return String(status) == value
            }
            return status / 100 == digit
        case .reason: return (record.otherKindMember("reason")?.stringValue ?? record.reason) == value
        case .rule: return record.rule == value || record.rule == Verdict.scriptedRulePrefix + value
        case .apnsID:
            if let answered = record.response?.apnsID, Self.equalIgnoringCase(answered, value) { return true }
            return record.requestAPNsID.map { Self.equalIgnoringCase($0, value) } ?? false
        case .collapseID: return record.request.fields.collapseID == value
        case .connection: return String(record.connectionID) == value
        case .accepted: return record.accepted == (value == "true")
        case .device: return record.device?.kind.rawValue == value
        case .deviceRule: return record.device.map { $0.fired(DeviceRule.read(value)) } ?? false
        case .warnings: return record.device.map { $0.warnings.isEmpty == (value == "none") } ?? false
        case .activity: return record.device?.activityID.map { $0.uppercased().hasPrefix(value) } ?? false
        case .event: return record.apsEvent == value
        case .kind: return record.kind.name == value
        case .channel:
            // A fan-out names its broadcast's channel too, but it is found by `kind:fan-out`, not counted as one.
            guard record.kind == .broadcast || record.kind == .channel else { return false }
            return record.otherKindMember("channel")?.stringValue == value
        case .operation: return record.otherKindMember("operation")?.stringValue == value
        case .text: return record.payloadText.range(of: value, options: .caseInsensitive) != nil
        case .after: return time.map { record.receivedAt >= $0.date(now: Date()) } ?? false
        case .before: return time.map { record.receivedAt < $0.date(now: Date()) } ?? false
        }
    }

    /// The fields a record of another kind (a broadcast, a channel operation) can match: it has no push fields.
    static let otherKindFields: Set<Field> = [
        .kind, .connection, .after, .before, .status, .reason, .channel, .operation,
    ]

    /// What `record` has in the field, as messages say it: `none` when it has nothing there.
    public func actualText(_ record: JournalRecord) -> String {
        let actual: String? =
            switch field {
            case .token: record.deviceToken
            case .topic: record.topic
            case .type: record.pushType
            case .priority: record.request.fields.priority
            case .status: record.answeredStatus.map { String($0) }
            case .reason: record.otherKindMember("reason")?.stringValue ?? record.reason
            case .rule: record.rule
            case .apnsID: record.response?.apnsID ?? record.requestAPNsID
            case .collapseID: record.request.fields.collapseID
            case .connection: String(record.connectionID)
            case .accepted: record.accepted ? "true" : "false"
            case .device: record.device?.summary
            case .deviceRule:
                record.device.map { $0.trace.isEmpty ? "none" : $0.trace.map(\.id).joined(separator: ", ") }
            case .warnings: record.device.map { $0.warnings.isEmpty ? "none" : $0.warnings.joined(separator: "; ") }
            case .activity: record.device?.activityID
            case .event: record.apsEvent
            case .kind: record.kind.name
            case .channel: record.otherKindMember("channel")?.stringValue
            case .operation: record.otherKindMember("operation")?.stringValue
            case .text: Self.excerpt(record.payloadText)
            case .after, .before: Timestamp.text(record.receivedAt)
            }
        return actual ?? "none"
    }

    /// What the term asks, as a near miss says it: `4xx`, `not BadDeviceToken`, `containing "order ready"`.
    public var expectedText: String {
        guard field == .text else { return negated ? "not \(value)" : value }
        return "\(negated ? "without" : "containing") \(JSONValue.string(value).jsonText)"
    }

    /// The field as a near miss names it: `status`, `apns-id`, `payload`.
    public var fieldName: String { field == .text ? "payload" : field.rawValue }

    /// The term in the search text: `status:4xx`, `-reason:BadDeviceToken`, `"order ready"`, `hello`.
    public var text: String {
        let plain = !value.isEmpty && !value.contains { $0.isWhitespace || $0 == "\"" || $0 == ":" || $0 == "\\" }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let quoted = plain && !(field == .text && value.hasPrefix("-")) ? value : "\"\(escaped)\""
        return (negated ? "-" : "") + (field == .text ? quoted : "\(field.rawValue):\(quoted)")
    }

    /// The first 60 characters of a payload, on one line.
    private static func excerpt(_ text: String) -> String {
        let line = text.replacingOccurrences(of: "\n", with: " ")
        return line.count > 60 ? String(line.prefix(60)) + "…" : line
    }

    /// Whether `a` and `b` are the same text but for case (tokens, apns-ids).
    static func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
        a.count == b.count && a.lowercased() == b.lowercased()
    }
}
