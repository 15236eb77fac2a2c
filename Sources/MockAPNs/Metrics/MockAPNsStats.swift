/// Counts over the requests recorded since the journal was last cleared, and the server's running totals: what
/// `stats()` and `GET /v1/stats` answer. A report read from `ServerMetrics`, which does the counting (and also
/// answers `/metrics`).
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
    public var controlFramesSent = HTTP2FrameCounts(.sent)
    /// TLS handshakes that failed since start (a client that does not trust the CA, a scanner, an old client).
    public var failedHandshakes = 0
    /// The newest of them, if any.
    public var lastFailedHandshake: FailedHandshake?

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

extension MockAPNsStats: JSONMapped {
    /// The stats as the control API answers them, counts by key sorted by name; read back with any count that is
    /// missing as zero.
    public static let jsonMapping = JSONMapping<MockAPNsStats, MockAPNsStats>(
        MockAPNsStats(),
        [
            .member("records", \.records, .integer),
            .member("total", \.total, .integer),
            .member("dropped", \.dropped, .integer),
            .member("accepted", \.accepted, .integer),
            .member("rejected", \.rejected, .integer),
            .member("byStatus", \.byStatus, .counts),
            .member("byReason", \.byReason, .counts),
            .member("byPushType", \.byPushType, .counts),
            .member("byTopic", \.byTopic, .counts),
            .member("byConnection", \.byConnection, .counts),
            .member("connections", \.connections, .counts),
            .member("controlFramesSent", \.controlFramesSent, .frameCounts(.sent)),
            .member("failedHandshakes", \.failedHandshakes, .integer),
            .member("lastFailedHandshake", \.lastFailedHandshake, .optional(.object)),
        ])

    /// Reads stats from the control API's JSON; missing counts (or JSON that is not stats) read as zero.
    public init(json: JSONValue) {
        self = Self.jsonMapping.read(json) ?? MockAPNsStats()
    }

    /// `connections`: `open` and `total`.
    private var connections: [String: Int] {
        get { ["open": openConnections, "total": totalConnections] }
        set {
            openConnections = newValue["open"] ?? 0
            totalConnections = newValue["total"] ?? 0
        }
    }
}

extension JSONForm where T == [String: Int] {
    /// Counts by key, as an object with the keys sorted by name; a count that is not a number reads as zero.
    static var counts: JSONForm {
        JSONForm(
            write: { counts in .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) }) },
            read: { json in
                Dictionary(
                    (json.objectMembers ?? []).map { ($0.0, JSONForm<Int>.integer(from: $0.1) ?? 0) },
                    uniquingKeysWith: { _, last in last })
            })
    }
}
