import CNGHTTP2

/// HTTP/2 control frames by type, one way: the ones the server sent (what clients with a control-frame budget count
/// against it; swift-nio-http2 allows about 200 in 30 seconds: `/v1/stats`' `controlFramesSent`, `/metrics`), or
/// the ones a client sent on one connection (`GET /v1/connections`' `framesReceived`: a client that pings every
/// second, resets its streams or says GOAWAY shows it there).
///
/// Both are counted by the session as nghttp2 sends or reads the frames: DATA, HEADERS and PRIORITY frames return
/// before the count, so a push costs one comparison.
public struct HTTP2FrameCounts: Sendable, Hashable {
    /// Which way the frames went.
    public enum Direction: Sendable, Hashable {
        /// Sent by the server.
        case sent
        /// Sent by a client.
        case received
    }

    /// Which way the frames went; it names the PING count (`ping_ack` sent, `ping` received).
    public let direction: Direction
    /// SETTINGS frames that carry values (a connection's preface, and each change later: the server's stream-limit
    /// changes).
    public var settings = 0
    /// SETTINGS acknowledgements.
    public var settingsAcks = 0
    /// PING frames: sent, the acknowledgements of a client's pings (the server never pings first); received, the
    /// client's pings (an acknowledgement would answer a ping the server never sends).
    public var pings = 0
    /// WINDOW_UPDATE frames.
    public var windowUpdates = 0
    /// RST_STREAM frames: sent, refused streams, oversized headers and scripted resets; received, streams the
    /// client gave up.
    public var rstStreams = 0
    /// GOAWAY frames.
    public var goaways = 0

    /// All counts zero.
    public init(_ direction: Direction) {
        self.direction = direction
    }

    /// The counts given.
    public init(
        _ direction: Direction, settings: Int, settingsAcks: Int, pings: Int, windowUpdates: Int, rstStreams: Int,
        goaways: Int
    ) {
        self.direction = direction
        self.settings = settings
        self.settingsAcks = settingsAcks
        self.pings = pings
        self.windowUpdates = windowUpdates
        self.rstStreams = rstStreams
        self.goaways = goaways
    }

    /// Every control frame counted.
    public var total: Int { settings + settingsAcks + pings + windowUpdates + rstStreams + goaways }

    /// The name of the PING count: `ping_ack` for the server's frames, `ping` for a client's.
    var pingName: String { direction == .sent ? "ping_ack" : "ping" }

    /// The counts by name, as `/metrics` labels, `/v1/stats` keys and `GET /v1/connections` spell them.
    public var byName: [(name: String, count: Int)] {
        [
            ("settings", settings), ("settings_ack", settingsAcks), (pingName, pings),
            ("window_update", windowUpdates), ("rst_stream", rstStreams), ("goaway", goaways),
        ]
    }

    /// Counts a frame of `type` with `flags`; other types (DATA, HEADERS, PRIORITY, an unknown extension frame)
    /// are left out, and so is a PING the other way round (a sent ping, a received acknowledgement).
    mutating func count(type: UInt8, flags: UInt8) {
        let ack = flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0
        switch UInt32(type) {
        case NGHTTP2_SETTINGS.rawValue: if ack { settingsAcks += 1 } else { settings += 1 }
        case NGHTTP2_PING.rawValue: if ack == (direction == .sent) { pings += 1 }
        case NGHTTP2_WINDOW_UPDATE.rawValue: windowUpdates += 1
        case NGHTTP2_RST_STREAM.rawValue: rstStreams += 1
        case NGHTTP2_GOAWAY.rawValue: goaways += 1
        default: break
        }
    }

    /// Adds `other`'s counts to these.
    mutating func add(_ other: HTTP2FrameCounts) {
        settings += other.settings
        settingsAcks += other.settingsAcks
        pings += other.pings
        windowUpdates += other.windowUpdates
        rstStreams += other.rstStreams
        goaways += other.goaways
    }

    /// These counts less `other`'s.
    func subtracting(_ other: HTTP2FrameCounts) -> HTTP2FrameCounts {
        HTTP2FrameCounts(
            direction, settings: settings - other.settings, settingsAcks: settingsAcks - other.settingsAcks,
            pings: pings - other.pings, windowUpdates: windowUpdates - other.windowUpdates,
            rstStreams: rstStreams - other.rstStreams, goaways: goaways - other.goaways)
    }
}

extension HTTP2FrameCounts {
    /// The counts as one Prometheus counter labelled by frame type (the server's frames).
    var prometheusText: String {
        let name = "mock_apns_http2_control_frames_sent_total"
        var text = "# HELP \(name) HTTP/2 control frames the APNs connections sent, by type.\n# TYPE \(name) counter\n"
        for (type, count) in byName {
            text += "\(name){type=\"\(type)\"} \(count)\n"
        }
        return text
    }
}

extension JSONForm where T == HTTP2FrameCounts {
    /// The counts of frames that went `direction` by type, as `byName` spells them, then their `total` (written,
    /// not read).
    static func frameCounts(_ direction: HTTP2FrameCounts.Direction) -> JSONForm {
        JSONForm(
            write: { counts in
                .object(
                    counts.byName.map { ($0.name, .number(String($0.count))) }
                        + [("total", .number(String(counts.total)))])
            },
            read: { json in
                func count(_ name: String) -> Int { json[name].flatMap(JSONForm<Int>.integer(from:)) ?? 0 }
                let empty = HTTP2FrameCounts(direction)
                return HTTP2FrameCounts(
                    direction, settings: count("settings"), settingsAcks: count("settings_ack"),
                    pings: count(empty.pingName), windowUpdates: count("window_update"),
                    rstStreams: count("rst_stream"), goaways: count("goaway"))
            })
    }
}
