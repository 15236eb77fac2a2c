import Foundation

/// Which journal records a query, a wait or a stream is about: every field given must match.
///
/// The same filters exist as query parameters of the control API (`token`, `topic`, `pushType`, `apnsID`,
/// `status`, `reason`, `accepted`, `connection`, `device`, `warnings`, `channel`, `operation`, `q`, `since`, `olderThan`, `after`, `before`,
/// `limit`)
/// and as command-line options of `mock-apns requests`. A query is the URL and Swift spelling of one `RuleMatch`
/// (`match`): every filter, and every word of `search`, is a `MatchTerm`, so filters, waits, streams and
/// expectations test a record in one place.
public struct JournalQuery: Sendable, Hashable {
    /// The device token (compared case-insensitively).
    public var token: String?
    /// The `apns-topic` sent.
    public var topic: String?
    /// The push type the request was taken as (`alert`, `liveactivity`, ...).
    public var pushType: String?
    /// The `apns-id` sent or answered (compared case-insensitively).
    public var apnsID: String?
    /// The HTTP status answered.
    public var status: Int?
    /// The rejection reason answered (`Unregistered`, `BadDeviceToken`, ...).
    public var reason: String?
    /// Whether the push was accepted.
    public var accepted: Bool?
    /// The connection id the request came on.
    public var connection: UInt64?
    /// What the simulated phone did with the push (`applied`, `dropped`, ...); a record without a device part (a
    /// push that reached no Live Activity) never matches.
    public var device: DeviceOutcome.Kind?
    /// Whether the phone's outcome carries warnings (`false`: applied with nothing that looked wrong); a record
    /// without a device part never matches. Written `warnings=none` or `warnings=some`.
    public var deviceWarnings: Bool?
    /// The broadcast channel a `broadcast` or `channel` record is about (its base64 id); a device push never
    /// matches.
    public var channel: String?
    /// What a `channel` record did (`create`, `read`, `delete`, `list`); any other record never matches.
    public var operation: ChannelOperation?
    /// The search text (`q=status:4xx -reason:BadDeviceToken`): fields, payload words and phrases, `-` to negate.
    public var search: RecordSearch?
    /// Only records whose sequence number is greater than this one.
    public var since: UInt64?
    /// Only records whose sequence number is smaller than this one: with `limit`, the page of records before one
    /// already shown (cursor paging, walking back from the newest).
    public var olderThan: UInt64?
    /// Only records received at or after this time.
    public var after: TimePoint?
    /// Only records received before this time.
    public var before: TimePoint?
    /// At most this many records, the newest ones.
    public var limit: Int?

    /// A query; with nothing given it matches every record.
    public init(
        token: String? = nil, topic: String? = nil, pushType: String? = nil, apnsID: String? = nil,
        status: Int? = nil, reason: String? = nil, accepted: Bool? = nil, connection: UInt64? = nil,
        device: DeviceOutcome.Kind? = nil, deviceWarnings: Bool? = nil, channel: String? = nil,
        operation: ChannelOperation? = nil, search: RecordSearch? = nil,
        since: UInt64? = nil, olderThan: UInt64? = nil, after: TimePoint? = nil, before: TimePoint? = nil,
        limit: Int? = nil
    ) {
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.apnsID = apnsID
        self.status = status
        self.reason = reason
        self.accepted = accepted
        self.connection = connection
        self.device = device
        self.deviceWarnings = deviceWarnings
        self.channel = channel
        self.operation = operation
        self.search = search
        self.since = since
        self.olderThan = olderThan
        self.after = after
        self.before = before
        self.limit = limit
    }

    /// The fields a record is compared on; `since`, `olderThan`, `after`, `before` and `limit` choose a window
    /// instead.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// The device token.
        case token
        /// `apns-topic`.
        case topic
        /// The push type.
        case pushType
        /// The `apns-id` sent or answered.
        case apnsID
        /// The HTTP status answered.
        case status
        /// The rejection reason.
        case reason
        /// Accepted or not.
        case accepted
        /// The connection id.
        case connection
        /// What the simulated phone did.
        case device
        /// Whether the phone's outcome carries warnings.
        case warnings
        /// The broadcast channel's id.
        case channel
        /// The channel operation.
        case operation
        /// The search text's words (`q`).
        case search = "q"
    }

    /// Whether `record` is in the window (`since`, `olderThan`, `after`, `before`) and matches every field given.
    ///
    /// Builds the matcher each time: to test many records, take `matcher` once. A relative `after` or `before`
    /// (`-5m`, `16:10`) is read against the system clock here; the server fixes them with its own clock first
    /// (`resolvingTimes`).
    public func matches(_ record: JournalRecord) -> Bool { matcher(record) }

    /// The test of `matches(_:)` built once: the window and `match`.
    public var matcher: @Sendable (JournalRecord) -> Bool {
        let since = self.since
        let olderThan = self.olderThan
        let window = resolvingTimes(now: Date())
        let match = self.match
        return { record in
            if let since, record.sequence <= since { return false }
            if let olderThan, record.sequence >= olderThan { return false }
            guard window.isInTimeWindow(record) else { return false }
            return match.matches(record)
        }
    }

    /// Whether `record` was received at or after `after` and before `before` (when given).
    public func isInTimeWindow(_ record: JournalRecord) -> Bool {
        if let after, record.receivedAt < after.date(now: Date()) { return false }
        if let before, record.receivedAt >= before.date(now: Date()) { return false }
        return true
    }

    /// The query with `after` and `before` fixed to dates against `now`, in the local time zone: once per answer,
    /// so that `-5m` means the same instant for every record compared.
    public func resolvingTimes(now: Date) -> JournalQuery {
        var query = self
        query.after = after?.resolved(now: now)
        query.before = before?.resolved(now: now)
        query.search = search?.resolvingTimes(now: now)
        return query
    }

    /// The fields given that `record` does not match, in `Field` order.
    public func mismatches(_ record: JournalRecord) -> [Field] {
        Field.allCases.filter { !fieldMatches($0, record) }
    }

    /// Whether the query leaves `field` open or `record` matches it.
    public func fieldMatches(_ field: Field, _ record: JournalRecord) -> Bool {
        terms(for: field).allSatisfy { $0.passes(record) }
    }

    /// The query as the one record matcher: a `RuleMatch` of its filters and search terms, in `Field` order
    /// (`since`, `olderThan` and `limit` choose a window instead).
    public var match: RuleMatch { RuleMatch(terms: Field.allCases.flatMap(terms(for:))) }

    /// The terms `field` stands for: none when it is left open; the search's words for `search`.
    func terms(for field: Field) -> [MatchTerm] {
        guard let termField = field.termField else { return search?.terms ?? [] }
        return expected(field).map { [MatchTerm(field: termField, value: $0)] } ?? []
    }

    /// What the query asks of `field`, as text; `nil` when the field is left open.
    public func expected(_ field: Field) -> String? {
        switch field {
        case .token: token
        case .topic: topic
        case .pushType: pushType
        case .apnsID: apnsID
        case .status: status.map(String.init)
        case .reason: reason
        case .accepted: accepted.map { $0 ? "true" : "false" }
        case .connection: connection.map(String.init)
        case .device: device?.rawValue
        case .warnings: deviceWarnings.map { $0 ? "some" : "none" }
        case .channel: channel
        case .operation: operation?.rawValue
        case .search: search?.text
        }
    }

    /// What `record` has for `field`, as text (`none` when it has nothing there); for `search`, what it has in
    /// the fields of the search's words that it fails (`status:200`).
    public func actualText(_ field: Field, in record: JournalRecord) -> String {
        guard field == .search else { return Self.actual(field, in: record) }
        let failed = terms(for: .search).filter { !$0.passes(record) }
        return failed.map { "\($0.fieldName):\($0.actualText(record))" }.joined(separator: " ")
    }

    /// What `record` has for `field`, as text (`none` when it has nothing there); for `search`, which has no
    /// field of its own, the record's summary line.
    public static func actual(_ field: Field, in record: JournalRecord) -> String {
        guard let termField = field.termField else { return record.summaryLine }
        return MatchTerm(field: termField, value: "").actualText(record)
    }
}

extension JournalQuery.Field {
    /// The record field a filter tests; `nil` for `search`, whose words name their own.
    var termField: MatchTerm.Field? {
        switch self {
        case .token: .token
        case .topic: .topic
        case .pushType: .type
        case .apnsID: .apnsID
        case .status: .status
        case .reason: .reason
        case .accepted: .accepted
        case .connection: .connection
        case .device: .device
        case .warnings: .warnings
        case .channel: .channel
        case .operation: .operation
        case .search: nil
        }
    }
}
