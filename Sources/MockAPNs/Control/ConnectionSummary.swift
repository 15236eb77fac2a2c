import Foundation

/// One APNs connection as `GET /v1/connections` shows it: who it was, how it authenticated, what it carried and
/// what the server did to it.
///
/// Made from two sources: the journal's records on the connection (`pushes`, `byStatus`, `auth`, the times of its
/// pushes) and the server's connection history (`ConnectionHistory`: when it opened and closed, its ALPN, the
/// GOAWAY, RST_STREAM and stream-limit frames sent on it). A connection the history no longer keeps (or a journal
/// read from a file) has only the first: `open` is then `nil`, and so are `alpn` and `closedAt`.
public struct ConnectionSummary: Sendable, Hashable {
    /// The connection's number (the records' `connection`).
    public var id: UInt64
    /// The client's address and port.
    public var remoteAddress: String
    /// When it was accepted, else its first record's arrival.
    public var firstAt: Date
    /// The latest of its close, its last event and its last record's arrival and answer.
    public var lastAt: Date
    /// Whether it is open now; `nil` when the server's history does not know it.
    public var open: Bool?
    /// When it closed; `nil` while open or when not known.
    public var closedAt: Date?
    /// The ALPN protocol agreed (`h2`, or `h2c` on the cleartext port); `nil` when the client offered none, the
    /// handshake did not finish, or the history does not know the connection.
    public var alpn: String?
    /// How its latest push that got that far authenticated (`token` with team, key and `iat`, or `certificate`).
    public var auth: AuthSummary?
    /// Its records in the journal now.
    public var pushes: Int
    /// Those records by answer status (`"200"`, `"400"`, …; `"none"` for a record with no answer).
    public var byStatus: [String: Int]
    /// The GOAWAY, RST_STREAM and stream-limit frames the server sent on it, oldest first (the newest
    /// `ConnectionHistory.eventCapacity`).
    public var events: [ConnectionEvent]
    /// Events left out for that bound.
    public var eventsDropped: Int
    /// The control frames the client sent on it (SETTINGS, PING, WINDOW_UPDATE, RST_STREAM, GOAWAY), by type;
    /// `nil` when the history does not know the connection.
    public var framesReceived: HTTP2FrameCounts?

    /// A summary from its parts.
    public init(
        id: UInt64, remoteAddress: String, firstAt: Date, lastAt: Date, open: Bool? = nil, closedAt: Date? = nil,
        alpn: String? = nil, auth: AuthSummary? = nil, pushes: Int = 0, byStatus: [String: Int] = [:],
        events: [ConnectionEvent] = [], eventsDropped: Int = 0, framesReceived: HTTP2FrameCounts? = nil
    ) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.firstAt = firstAt
        self.lastAt = lastAt
        self.open = open
        self.closedAt = closedAt
        self.alpn = alpn
        self.auth = auth
        self.pushes = pushes
        self.byStatus = byStatus
        self.events = events
        self.eventsDropped = eventsDropped
        self.framesReceived = framesReceived
    }

    /// The summaries of every connection the history keeps or a record in `records` names (a replay names none),
    /// by id.
    static func all(records: [JournalRecord], history: [ConnectionHistory.Entry]) -> [ConnectionSummary] {
        var summaries: [UInt64: ConnectionSummary] = [:]
        for entry in history {
            let lastEvent = entry.events.last?.at ?? entry.openedAt
            summaries[entry.id] = ConnectionSummary(
                id: entry.id, remoteAddress: entry.remoteAddress, firstAt: entry.openedAt,
                lastAt: max(entry.closedAt ?? lastEvent, lastEvent), open: entry.closedAt == nil,
                closedAt: entry.closedAt, alpn: entry.alpn, events: entry.events, eventsDropped: entry.eventsDropped,
                framesReceived: entry.framesReceived)
        }
        for record in records where record.kind == .devicePush && record.connectionID != 0 {
            let latest = max(record.answeredAt ?? record.receivedAt, record.receivedAt)
            var summary =
                summaries[record.connectionID]
                ?? ConnectionSummary(
                    id: record.connectionID, remoteAddress: record.remoteAddress, firstAt: record.receivedAt,
                    lastAt: latest)
            summary.firstAt = min(summary.firstAt, record.receivedAt)
            summary.lastAt = max(summary.lastAt, latest)
            summary.pushes += 1
            summary.byStatus[record.response.map { String($0.status) } ?? "none", default: 0] += 1
            if let auth = record.auth { summary.auth = auth }
            summaries[record.connectionID] = summary
        }
        return summaries.values.sorted { $0.id < $1.id }
    }
}

extension ConnectionSummary: JSONMapped {
    /// A connection as `GET /v1/connections` writes it: `id`, `remoteAddress`, `firstAt`, `lastAt`, `open`,
    /// `closedAt`, `alpn`, `auth`, `pushes`, `byStatus`, `events`, `eventsDropped`, `framesReceived`; read back `nil`
    /// without an `id`, `firstAt` and `lastAt`.
    public static let jsonMapping = JSONMapping<ConnectionSummary, ConnectionSummary>(
        ConnectionSummary(id: 0, remoteAddress: "", firstAt: .distantPast, lastAt: .distantPast),
        [
            .member("id", \.id, .integer, required: true),
            .member("remoteAddress", \.remoteAddress, .string),
            .member("firstAt", \.firstAt, .timestamp, required: true),
            .member("lastAt", \.lastAt, .timestamp, required: true),
            .member("open", \.open, .optional(.bool)),
            .member("closedAt", \.closedAt, .optional(.timestamp)),
            .member("alpn", \.alpn, .optional(.string)),
            .member("auth", \.auth, .optional(.object)),
            .member("pushes", \.pushes, .integer),
            .member("byStatus", \.byStatus, .counts),
            .member("events", \.events, .compactArray(.object)),
            .member("eventsDropped", \.eventsDropped, .integer),
            .member("framesReceived", \.framesReceived, .optional(.frameCounts(.received))),
        ])
}
