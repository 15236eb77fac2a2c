/// Counts over the journal's records, and the server's running totals.
public struct MockAPNsStats: Sendable, Hashable {
    /// Records in the journal now.
    public var records: Int
    /// Requests recorded since the server started (clearing does not reset it).
    public var total: UInt64
    /// Records dropped to respect the journal's capacity since the last clear.
    public var dropped: UInt64
    /// Records in the journal that were accepted.
    public var accepted: Int
    /// Records in the journal that were rejected (or got no answer).
    public var rejected: Int
    /// Records by HTTP status answered (`none` for no answer).
    public var byStatus: [String: Int]
    /// Rejected records by reason.
    public var byReason: [String: Int]
    /// Records by push type (`none` when there was none).
    public var byPushType: [String: Int]
    /// Records by `apns-topic` (`none` when there was none).
    public var byTopic: [String: Int]
    /// Records by connection id.
    public var byConnection: [String: Int]
    /// Connections open now.
    public var openConnections: Int
    /// Connections accepted since start.
    public var totalConnections: Int

    /// Stats with every count given.
    public init(
        records: Int = 0, total: UInt64 = 0, dropped: UInt64 = 0, accepted: Int = 0, rejected: Int = 0,
        byStatus: [String: Int] = [:], byReason: [String: Int] = [:], byPushType: [String: Int] = [:],
        byTopic: [String: Int] = [:], byConnection: [String: Int] = [:], openConnections: Int = 0,
        totalConnections: Int = 0
    ) {
        self.records = records
        self.total = total
        self.dropped = dropped
        self.accepted = accepted
        self.rejected = rejected
        self.byStatus = byStatus
        self.byReason = byReason
        self.byPushType = byPushType
        self.byTopic = byTopic
        self.byConnection = byConnection
        self.openConnections = openConnections
        self.totalConnections = totalConnections
    }

    /// Counts `records`, and takes the totals from the journal and the server's connection counters.
    public init(journal: Journal, metrics: ServerMetrics) {
        let all = journal.records()
        self.init(
            records: all.count, total: journal.totalCount, dropped: journal.droppedCount,
            openConnections: metrics.openConnections, totalConnections: metrics.totalConnections)
        for record in all {
            if record.accepted { accepted += 1 } else { rejected += 1 }
            byStatus[record.response.map { String($0.status) } ?? "none", default: 0] += 1
            if let reason = record.reason { byReason[reason, default: 0] += 1 }
            byPushType[record.pushType ?? "none", default: 0] += 1
            byTopic[record.topic ?? "none", default: 0] += 1
            byConnection[String(record.connectionID), default: 0] += 1
        }
    }
}

extension MockAPNsStats {
    /// The stats as the control API answers them; counts by key sorted by name.
    public var json: JSONValue {
        func counts(_ dictionary: [String: Int]) -> JSONValue {
            .object(dictionary.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) })
        }
        return .object([
            ("records", .number(String(records))),
            ("total", .number(String(total))),
            ("dropped", .number(String(dropped))),
            ("accepted", .number(String(accepted))),
            ("rejected", .number(String(rejected))),
            ("byStatus", counts(byStatus)),
            ("byReason", counts(byReason)),
            ("byPushType", counts(byPushType)),
            ("byTopic", counts(byTopic)),
            ("byConnection", counts(byConnection)),
            ("connections", .object([("open", .number(String(openConnections))), ("total", .number(String(totalConnections)))])),
        ])
    }

    /// Reads stats from the control API's JSON; missing counts read as zero.
    public init(json: JSONValue) {
        func int(_ value: JSONValue?) -> Int { value?.doubleValue.map { Int($0) } ?? 0 }
        func counts(_ value: JSONValue?) -> [String: Int] {
            Dictionary((value?.objectMembers ?? []).map { ($0.0, int($0.1)) }, uniquingKeysWith: { _, last in last })
        }
        self.init(
            records: int(json["records"]), total: UInt64(int(json["total"])), dropped: UInt64(int(json["dropped"])),
            accepted: int(json["accepted"]), rejected: int(json["rejected"]), byStatus: counts(json["byStatus"]),
            byReason: counts(json["byReason"]), byPushType: counts(json["byPushType"]),
            byTopic: counts(json["byTopic"]), byConnection: counts(json["byConnection"]),
            openConnections: int(json["connections"]?["open"]), totalConnections: int(json["connections"]?["total"]))
    }
}
