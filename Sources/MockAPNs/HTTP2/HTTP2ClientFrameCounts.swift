import CNGHTTP2

/// The HTTP/2 control frames a client sent on one connection, by type: what `GET /v1/connections` shows as
/// `framesReceived` (a client that pings every second, resets its streams or says GOAWAY shows it here).
///
/// Counted by the session as nghttp2 reads them (`HTTP2Session.framesReceived`): DATA, HEADERS and PRIORITY frames
/// return before the count, so a push costs one comparison. Handed to the connection history when they change.
public struct HTTP2ClientFrameCounts: Sendable, Hashable {
    /// SETTINGS frames that carry values (the client's preface, and any change later).
    public var settings = 0
    /// SETTINGS acknowledgements (of the server's SETTINGS).
    public var settingsAcks = 0
    /// PING frames (not acknowledgements: the server never pings).
    public var pings = 0
    /// WINDOW_UPDATE frames.
    public var windowUpdates = 0
    /// RST_STREAM frames: streams the client gave up.
    public var rstStreams = 0
    /// GOAWAY frames: the client closing the connection.
    public var goaways = 0

    /// All counts zero.
    public init() {}

    /// Every control frame counted.
    public var total: Int { settings + settingsAcks + pings + windowUpdates + rstStreams + goaways }

    /// The counts by name, as `GET /v1/connections` spells them (the names of `controlFramesSent`).
    public var byName: [(name: String, count: Int)] {
        [
            ("settings", settings), ("settings_ack", settingsAcks), ("ping", pings),
            ("window_update", windowUpdates), ("rst_stream", rstStreams), ("goaway", goaways),
        ]
    }

    /// Counts a frame of `type` with `flags` that the client sent; other types (PRIORITY, an unknown extension
    /// frame) are left out.
    mutating func count(type: UInt8, flags: UInt8) {
        let ack = flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0
        switch UInt32(type) {
        case NGHTTP2_SETTINGS.rawValue: if ack { settingsAcks += 1 } else { settings += 1 }
        case NGHTTP2_PING.rawValue: if !ack { pings += 1 }
        case NGHTTP2_WINDOW_UPDATE.rawValue: windowUpdates += 1
        case NGHTTP2_RST_STREAM.rawValue: rstStreams += 1
        case NGHTTP2_GOAWAY.rawValue: goaways += 1
        default: break
        }
    }
}

extension JSONForm where T == HTTP2ClientFrameCounts {
    /// The counts by type (`settings_ack`), then their `total` (written, not read).
    static var clientFrameCounts: JSONForm {
        JSONForm(
            write: { counts in
                .object(
                    counts.byName.map { ($0.name, .number(String($0.count))) }
                        + [("total", .number(String(counts.total)))])
            },
            read: { json in
                func count(_ name: String) -> Int { json[name].flatMap(JSONForm<Int>.integer(from:)) ?? 0 }
                var counts = HTTP2ClientFrameCounts()
                counts.settings = count("settings")
                counts.settingsAcks = count("settings_ack")
                counts.pings = count("ping")
                counts.windowUpdates = count("window_update")
                counts.rstStreams = count("rst_stream")
                counts.goaways = count("goaway")
                return counts
            })
    }
}
