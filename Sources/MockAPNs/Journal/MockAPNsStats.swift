/// Counts over the requests recorded since the journal was last cleared, and the server's running totals: what
/// `stats()` and `GET /v1/stats` answer. (The Prometheus counters of `/metrics` are `RequestMetrics`.)
public struct MockAPNsStats: Sendable, Hashable {
    /// Records in the journal now.
    public var records: Int
    /// Requests recorded since the server started (clearing does not reset it).
    public var total: UInt64
    /// Records dropped to respect the journal's capacity since the last clear.
    public var dropped: UInt64
    /// Requests accepted since the last clear (dropped records included, as in every count below).
    public var accepted: Int
    /// Requests rejected (or given no answer) since the last clear.
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
    /// HTTP/2 control frames the APNs connections sent since start, by type.
    public var controlFramesSent = HTTP2ControlFrameCounts()

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
            (
                "connections",
                .object([("open", .number(String(openConnections))), ("total", .number(String(totalConnections)))])
            ),
            (
                "controlFramesSent",
                .object(
                    controlFramesSent.byName.map { ($0.name, .number(String($0.count))) }
                        + [("total", .number(String(controlFramesSent.total)))])
            ),
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
        let frames = json["controlFramesSent"]
        controlFramesSent = HTTP2ControlFrameCounts(
            settings: int(frames?["settings"]), settingsAcks: int(frames?["settings_ack"]),
            pingAcks: int(frames?["ping_ack"]), windowUpdates: int(frames?["window_update"]),
            rstStreams: int(frames?["rst_stream"]), goaways: int(frames?["goaway"]))
    }
}
