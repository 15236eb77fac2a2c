/// Control frames the server sent, by type: what clients with a control-frame budget (swift-nio-http2 allows
/// about 200 in 30 seconds) count against the server.
public struct HTTP2ControlFrameCounts: Sendable, Hashable {
    /// SETTINGS frames that carry values (the connection preface's and each stream-limit change).
    public var settings = 0
    /// SETTINGS acknowledgements.
    public var settingsAcks = 0
    /// PING acknowledgements (one per PING the client sent; the server never pings first).
    public var pingAcks = 0
    /// WINDOW_UPDATE frames.
    public var windowUpdates = 0
    /// RST_STREAM frames (refused streams, oversized headers, scripted resets).
    public var rstStreams = 0
    /// GOAWAY frames.
    public var goaways = 0

    /// All counts zero.
    public init() {}

    /// The counts given.
    public init(settings: Int, settingsAcks: Int, pingAcks: Int, windowUpdates: Int, rstStreams: Int, goaways: Int) {
        self.settings = settings
        self.settingsAcks = settingsAcks
        self.pingAcks = pingAcks
        self.windowUpdates = windowUpdates
        self.rstStreams = rstStreams
        self.goaways = goaways
    }

    /// Every control frame counted.
    public var total: Int { settings + settingsAcks + pingAcks + windowUpdates + rstStreams + goaways }

    /// The counts by name, as `/metrics` labels and `/v1/stats` keys spell them.
    public var byName: [(name: String, count: Int)] {
        [
            ("settings", settings), ("settings_ack", settingsAcks), ("ping_ack", pingAcks),
            ("window_update", windowUpdates), ("rst_stream", rstStreams), ("goaway", goaways),
        ]
    }

    /// Adds `other`'s counts to these.
    mutating func add(_ other: HTTP2ControlFrameCounts) {
        settings += other.settings
        settingsAcks += other.settingsAcks
        pingAcks += other.pingAcks
        windowUpdates += other.windowUpdates
        rstStreams += other.rstStreams
        goaways += other.goaways
    }

    /// These counts less `other`'s.
    func subtracting(_ other: HTTP2ControlFrameCounts) -> HTTP2ControlFrameCounts {
        var difference = HTTP2ControlFrameCounts()
        difference.settings = settings - other.settings
        difference.settingsAcks = settingsAcks - other.settingsAcks
        difference.pingAcks = pingAcks - other.pingAcks
        difference.windowUpdates = windowUpdates - other.windowUpdates
        difference.rstStreams = rstStreams - other.rstStreams
        difference.goaways = goaways - other.goaways
        return difference
    }
}

extension HTTP2ControlFrameCounts {
    /// The counts as one Prometheus counter labelled by frame type.
    var prometheusText: String {
        let name = "mock_apns_http2_control_frames_sent_total"
        var text = "# HELP \(name) HTTP/2 control frames the APNs connections sent, by type.\n# TYPE \(name) counter\n"
        for (type, count) in byName {
            text += "\(name){type=\"\(type)\"} \(count)\n"
        }
        return text
    }
}
