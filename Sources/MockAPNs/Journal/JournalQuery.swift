import Foundation

/// Which journal records a query, a wait or a stream is about: every field given must match.
///
/// The same filters exist as query parameters of the control API (`token`, `topic`, `pushType`, `apnsID`,
/// `status`, `reason`, `accepted`, `connection`, `device`, `warnings`, `since`, `after`, `before`, `limit`) and as
/// command-line options of `mock-apns requests`.
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
    /// Only records whose sequence number is greater than this one.
    public var since: UInt64?
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
        device: DeviceOutcome.Kind? = nil, deviceWarnings: Bool? = nil, since: UInt64? = nil,
        after: TimePoint? = nil, before: TimePoint? = nil, limit: Int? = nil
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
        self.since = since
        self.after = after
        self.before = before
        self.limit = limit
    }

    /// The fields a record is compared on; `since`, `after`, `before` and `limit` choose a window instead.
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
    }

    /// Whether `record` is in the window (`since`, `after`, `before`) and matches every field given.
    ///
    /// A relative `after` or `before` (`-5m`, `16:10`) is read against the system clock here; the server fixes
    /// them with its own clock first (`resolvingTimes`).
    public func matches(_ record: JournalRecord) -> Bool {
        if let since, record.sequence <= since { return false }
        guard isInTimeWindow(record) else { return false }
        for field in Field.allCases where !fieldMatches(field, record) { return false }
        return true
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
        return query
    }

    /// The fields given that `record` does not match, in `Field` order.
    public func mismatches(_ record: JournalRecord) -> [Field] {
        Field.allCases.filter { !fieldMatches($0, record) }
    }

    /// Whether the query leaves `field` open or `record` matches it.
    public func fieldMatches(_ field: Field, _ record: JournalRecord) -> Bool {
        switch field {
        case .token:
            guard let token else { return true }
            return record.deviceToken.map { Self.equalIgnoringCase($0, token) } ?? false
        case .topic:
            guard let topic else { return true }
            return record.topic == topic
        case .pushType:
            guard let pushType else { return true }
            return record.pushType == pushType
        case .apnsID:
            guard let apnsID else { return true }
            let answered = record.response.map { Self.equalIgnoringCase($0.apnsID, apnsID) } ?? false
            return answered || record.requestAPNsID.map { Self.equalIgnoringCase($0, apnsID) } ?? false
        case .status:
            guard let status else { return true }
            return record.response?.status == status
        case .reason:
            guard let reason else { return true }
            return record.reason == reason
        case .accepted:
            guard let accepted else { return true }
            return record.accepted == accepted
        case .connection:
            guard let connection else { return true }
            return record.connectionID == connection
        case .device:
            guard let device else { return true }
            return record.device?.kind == device
        case .warnings:
            guard let deviceWarnings else { return true }
            return record.device.map { $0.warnings.isEmpty != deviceWarnings } ?? false
        }
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
        }
    }

    /// What `record` has for `field`, as text (`none` when it has nothing there).
    public static func actual(_ field: Field, in record: JournalRecord) -> String {
        let value: String? =
            switch field {
            case .token: record.deviceToken
            case .topic: record.topic
            case .pushType: record.pushType
            case .apnsID: record.response?.apnsID ?? record.requestAPNsID
            case .status: record.response.map { String($0.status) }
            case .reason: record.reason
            case .accepted: record.accepted ? "true" : "false"
            case .connection: String(record.connectionID)
            case .device: record.device?.summary
            case .warnings: record.device.map { $0.warnings.isEmpty ? "none" : $0.warnings.joined(separator: "; ") }
            }
        return value ?? "none"
    }

    private static func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
        a.count == b.count && a.lowercased() == b.lowercased()
    }
}
