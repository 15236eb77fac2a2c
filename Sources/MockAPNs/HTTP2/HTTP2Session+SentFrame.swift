import CNGHTTP2

extension HTTP2Session {
    /// The most frames `sentFrames` holds between two takes; a client that makes the server reset thousands of
    /// streams in one read cannot grow it further.
    static let sentFrameLimit = 64

    /// A frame the server sent that a connection's history keeps (`ConnectionHistory`): a GOAWAY, an RST_STREAM,
    /// or a SETTINGS frame that announces SETTINGS_MAX_CONCURRENT_STREAMS.
    struct SentFrame: Equatable {
        /// What kind of event it makes.
        var kind: ConnectionEvent.Kind
        /// The frame in words; a SETTINGS frame's is completed by `noteSent`, which knows the limit before it.
        var detail: String
        /// The stream limit a SETTINGS frame announces.
        var streamLimit: UInt32?

        /// The frame nghttp2 just sent, when it is one the history keeps; `nil` for any other. Called from
        /// `on_frame_send_callback`, which reaches it only for frames other than DATA and HEADERS.
        init?(_ frame: nghttp2_frame) {
            switch UInt32(frame.hd.type) {
            case NGHTTP2_GOAWAY.rawValue:
                let goaway = frame.goaway
                var text = "GOAWAY \(Self.errorName(goaway.error_code)), last stream \(goaway.last_stream_id)"
                if let data = goaway.opaque_data, goaway.opaque_data_len > 0 {
                    // At most 512 bytes of the debug data: it is the server's own ({"reason":"Shutdown"}), or
                    // nghttp2's words for a protocol error.
                    let bytes = UnsafeBufferPointer(start: data, count: min(goaway.opaque_data_len, 512))
                    text += ": " + String(decoding: bytes, as: UTF8.self)
                }
                self.init(kind: .goaway, detail: text, streamLimit: nil)
            case NGHTTP2_RST_STREAM.rawValue:
                let detail = "RST_STREAM \(Self.errorName(frame.rst_stream.error_code)) on stream \(frame.hd.stream_id)"
                self.init(kind: .reset, detail: detail, streamLimit: nil)
            case NGHTTP2_SETTINGS.rawValue:
                guard frame.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0, let entries = frame.settings.iv else {
                    return nil
                }
                let id = Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue)
                guard let entry = UnsafeBufferPointer(start: entries, count: frame.settings.niv).last(where: {
                    $0.settings_id == id
                }) else { return nil }
                self.init(kind: .streamLimit, detail: "", streamLimit: entry.value)
            default:
                return nil
            }
        }

        private init(kind: ConnectionEvent.Kind, detail: String, streamLimit: UInt32?) {
            self.kind = kind
            self.detail = detail
            self.streamLimit = streamLimit
        }

        /// An HTTP/2 error code by its RFC 9113 name (`NO_ERROR`, `REFUSED_STREAM`), as nghttp2 names it.
        static func errorName(_ code: UInt32) -> String {
            guard let name = nghttp2_http2_strerror(code) else { return "error \(code)" }
            return String(cString: name)
        }
    }

    /// Keeps `frame` for the owner's next `takeSentFrames`, with the stream limit before it in a SETTINGS frame's
    /// words; past `sentFrameLimit` it is only counted.
    func noteSent(_ frame: SentFrame) {
        var frame = frame
        if let limit = frame.streamLimit {
            frame.detail =
                announcedStreamLimit.map { "SETTINGS_MAX_CONCURRENT_STREAMS \(limit) (was \($0))" }
                ?? "SETTINGS_MAX_CONCURRENT_STREAMS \(limit) (the connection's first)"
            announcedStreamLimit = limit
        }
        guard sentFrames.count < Self.sentFrameLimit else {
            sentFramesDropped += 1
            return
        }
        sentFrames.append(frame)
    }

    /// The frames kept since the last take, and how many were left out; both start over.
    func takeSentFrames() -> (frames: [SentFrame], dropped: Int) {
        defer {
            sentFrames = []
            sentFramesDropped = 0
        }
        return (sentFrames, sentFramesDropped)
    }
}
