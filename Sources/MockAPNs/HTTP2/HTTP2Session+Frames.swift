import CNGHTTP2

/// A frame the client sent that RFC 9113 §5.1 answers with a connection error, which nghttp2 1.52 (with closed
/// streams not kept) would ignore: GOAWAY with `errorCode`, then the connection ends.
struct HTTP2ConnectionViolation: Equatable {
    /// The GOAWAY error code (STREAM_CLOSED or PROTOCOL_ERROR).
    var errorCode: UInt32
    /// The GOAWAY's last-stream-id: the highest request stream opened before the frame.
    var lastStreamID: Int32
    /// What was wrong, sent as the GOAWAY's debug data (as nghttp2 words its own).
    var message: String
}

/// A DATA or HEADERS frame in a read whose check waits until nghttp2 has read the frames before it.
struct HTTP2FrameRecheck {
    /// Where the frame starts in the read's bytes.
    var offset: Int
    /// Its stream.
    var streamID: Int32
    /// HEADERS (else DATA).
    var isHeaders: Bool
}

extension HTTP2Session {
    /// Checks the DATA and HEADERS frames in bytes about to be read against the stream history as it stands before
    /// the read (nghttp2 drops DATA on a stream it no longer holds without any callback). Returns how many bytes
    /// come before a frame that ends the connection (all of them when none does), and the frames to check with
    /// `recheck` once nghttp2 has read the bytes before them.
    ///
    /// A stream opened in these bytes is above `history.highest`. A HEADERS frame above it, but not above every
    /// HEADERS before it in the same read, may be a lower stream id than one opened in this read: only the history
    /// after those frames tells (RFC 9113 §5.1). Likewise a DATA or HEADERS frame after the client's own RST_STREAM
    /// on its stream in the same read: nghttp2 holds the stream until it reads the reset, then drops the frame
    /// without a word. Finding these here, rather than in nghttp2's `on_begin_frame`, spares every frame of every
    /// push a callback; in a client's usual order (increasing streams, nothing sent after a reset) there are none.
    func checkFrames(_ bytes: UnsafeRawBufferPointer) -> (length: Int, rechecks: [HTTP2FrameRecheck]) {
        let highest = history.highest
        let headers = UInt8(NGHTTP2_HEADERS.rawValue)
        let rstStream = UInt8(NGHTTP2_RST_STREAM.rawValue)
        var highestHeaders = highest
        var rechecks: [HTTP2FrameRecheck] = []
        // The streams the client reset in these bytes (a set: a rapid reset puts thousands in one read), and the
        // highest of them, so that a frame above it (the usual next request) skips the set.
        var clientResets = Set<Int32>()
        var highestClientReset: Int32 = 0
        let stop = walker.walk(bytes, checkingAt: { type, streamID, offset in
            if type == rstStream, streamID & 1 == 1 {
                clientResets.insert(streamID)
                highestClientReset = max(highestClientReset, streamID)
                return true
            }
            if type <= headers, streamID <= highestClientReset, clientResets.contains(streamID) {
                rechecks.append(HTTP2FrameRecheck(offset: offset, streamID: streamID, isHeaders: type == headers))
                return true
            }
            if streamID > highest {
                if type == headers, streamID & 1 == 1 {
                    if streamID <= highestHeaders {
                        rechecks.append(HTTP2FrameRecheck(offset: offset, streamID: streamID, isHeaders: true))
                    } else {
                        highestHeaders = streamID
                    }
                }
                return true
            }
            guard type <= headers, streamID & 1 == 1, violation == nil, !holdsStream(streamID) else { return true }
            return check(isHeaders: type == headers, streamID: streamID, highest: highest)
        })
        // A frame that ends the connection leaves any later check nothing to do (a violation is already found).
        guard let stop else { return (bytes.count, rechecks) }
        return (stop, [])
    }

    /// Checks a frame that `checkFrames` set aside, now that nghttp2 has read the frames before it: on a stream
    /// nghttp2 no longer holds, against the stream history (a lower stream id than one opened in the read, or a
    /// stream the client reset).
    func recheck(_ frame: HTTP2FrameRecheck) {
        guard frame.streamID <= history.highest, violation == nil, !holdsStream(frame.streamID) else { return }
        _ = check(isHeaders: frame.isHeaders, streamID: frame.streamID, highest: history.highest)
    }

    /// Judges a DATA or HEADERS frame on a stream nghttp2 does not hold; false (and `violation` set) when it ends
    /// the connection.
    private func check(isHeaders: Bool, streamID: Int32, highest: Int32) -> Bool {
        // Above a GOAWAY's last-stream-id the stream was never processed: its frames are ignored (RFC 9113 §6.8).
        if streamID > goawayLastStreamID { return true }
        let kind = isHeaders ? "HEADERS" : "DATA"
        // A later GOAWAY never raises the last-stream-id of an earlier one (RFC 9113 §6.8).
        let last = min(highest, goawayLastStreamID)
        let found: HTTP2ConnectionViolation
        switch history.verdict(streamID: streamID, isHeaders: isHeaders) {
        case .allowed:
            return true
        case .streamClosed:
            found = HTTP2ConnectionViolation(
                errorCode: NGHTTP2_STREAM_CLOSED.rawValue, lastStreamID: last,
                message: "\(kind): stream \(streamID) closed")
        case .lowerStreamID:
            found = HTTP2ConnectionViolation(
                errorCode: NGHTTP2_PROTOCOL_ERROR.rawValue, lastStreamID: last,
                message: "\(kind): stream \(streamID) is below stream \(highest), already opened")
        }
        violation = found
        // Requests completed after this frame, in the same read, are above the GOAWAY: not processed.
        goawayLastStreamID = last
        return false
    }

    /// A frame went out: control frames are counted; a GOAWAY's last-stream-id bounds what is processed.
    func frameSent(type: UInt8, flags: UInt8, streamID: Int32, goawayLastStreamID last: Int32) {
        controlFrames.count(type: type, flags: flags)
        switch UInt32(type) {
        case NGHTTP2_RST_STREAM.rawValue:
            history.reset(streamID)
        case NGHTTP2_GOAWAY.rawValue:
            goawayLastStreamID = min(goawayLastStreamID, last)
        default:
            break
        }
    }
}
