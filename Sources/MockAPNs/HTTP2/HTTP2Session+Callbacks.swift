import CNGHTTP2

// MARK: - C trampolines: guard the pointers, recover the session, call a Swift method, map failure.
//
// Each is `@inline(__always)` so that the compiler makes it one C entry point with the session's method inlined.
// Without it the C thunk calls a Swift body of its own: first when they were internal (about 13 ns a push for
// `onHeader`), then, private, through a copy specialized without the unused arguments (the six callbacks took
// 324-340 perf samples per 1,000,000 pushes at 1x100 against 267-290 with it: about 5 ns a push; bench/README.md).

/// Registers the trampolines below with nghttp2's `callbacks`.
func registerTrampolines(_ callbacks: OpaquePointer) {
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
    nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
    nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSend)
}

/// Calls `body` with the session whose unretained pointer nghttp2 holds as user data. The session outlives every
/// callback (it owns the nghttp2 session), so it is lent without a retain and release per callback.
private func withOwner<Result>(
    _ userData: UnsafeMutableRawPointer?, orElse fallback: Result, _ body: (HTTP2Session) -> Result
) -> Result {
    guard let userData else { return fallback }
    return Unmanaged<HTTP2Session>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
}

/// `on_begin_headers_callback`: a HEADERS frame begins; a request's opens its stream (`beginHeaders`).
@inline(__always)
private func onBeginHeaders(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
    withOwner(userData, orElse: ()) {
        $0.beginHeaders(streamID: frame.pointee.hd.stream_id, category: frame.pointee.headers.cat)
    }
    return 0
}

/// `on_header_callback`: one header field (`header`); too many header bytes make nghttp2 reset the stream.
@inline(__always)
private func onHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ name: UnsafePointer<UInt8>?,
    _ nameLength: Int, _ value: UnsafePointer<UInt8>?, _ valueLength: Int, _ flags: UInt8,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame else { return 0 }
    let nameBuffer = UnsafeBufferPointer(start: name, count: name == nil ? 0 : nameLength)
    let valueBuffer = UnsafeBufferPointer(start: value, count: value == nil ? 0 : valueLength)
    // Too many header bytes: nghttp2 resets the stream (INTERNAL_ERROR).
    let kept = withOwner(userData, orElse: true) {
        $0.header(streamID: frame.pointee.hd.stream_id, name: nameBuffer, value: valueBuffer)
    }
    return kept ? 0 : NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue
}

/// `on_data_chunk_recv_callback`: a chunk of a request body (`dataChunk`).
@inline(__always)
private func onDataChunk(
    _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?, _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let data else { return 0 }
    withOwner(userData, orElse: ()) {
        $0.dataChunk(streamID: streamID, bytes: UnsafeBufferPointer(start: data, count: length))
    }
    return 0
}

/// `on_frame_recv_callback`: END_STREAM completes a request (`requestComplete`); a control frame is counted
/// (`framesReceived`).
///
/// A client RST_STREAM is not remembered in the stream history: the client may send nothing on a stream after its
/// own reset (RFC 9113 §5.1, "closed"), so a frame after it is the connection error STREAM_CLOSED. Only a reset the
/// server sent lets late frames through (`frameSent`).
@inline(__always)
private func onFrameReceived(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame else { return 0 }
    let type = frame.pointee.hd.type
    let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
    if endStream, type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue) {
        withOwner(userData, orElse: ()) { $0.requestComplete(streamID: frame.pointee.hd.stream_id) }
    } else if type > UInt8(NGHTTP2_PRIORITY.rawValue) {
        // DATA and HEADERS, two per push, stop at the comparison.
        withOwner(userData, orElse: ()) { $0.framesReceived.count(type: type, flags: frame.pointee.hd.flags) }
    }
    return 0
}

/// `on_stream_close_callback`: a stream closed, answered or reset (`streamClosed`).
@inline(__always)
private func onStreamClose(
    _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    withOwner(userData, orElse: ()) { $0.streamClosed(streamID: streamID) }
    return 0
}

/// The answer body's `nghttp2_data_provider` read callback (`readBody`); sets EOF with the last bytes.
func readResponseBody(
    _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ flags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let flags else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
    let read = withOwner(userData, orElse: nil) { $0.readBody(streamID: streamID, into: buffer, length: length) }
    guard let (count, done) = read else {
        return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
    }
    if done { flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
    return count
}

/// `on_frame_send_callback`: a frame went out (`frameSent`); DATA and HEADERS return before reaching the session.
@inline(__always)
private func onFrameSend(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    // DATA and HEADERS, two per push, return at once.
    guard let frame, frame.pointee.hd.type > UInt8(NGHTTP2_PRIORITY.rawValue), let userData else { return 0 }
    let isGoaway = frame.pointee.hd.type == UInt8(NGHTTP2_GOAWAY.rawValue)
    let last = isGoaway ? frame.pointee.goaway.last_stream_id : Int32.max
    Unmanaged<HTTP2Session>.fromOpaque(userData)._withUnsafeGuaranteedRef {
        $0.frameSent(
            type: frame.pointee.hd.type, flags: frame.pointee.hd.flags, streamID: frame.pointee.hd.stream_id,
            goawayLastStreamID: last)
        if let sent = HTTP2Session.SentFrame(frame.pointee) { $0.noteSent(sent) }
    }
    return 0
}
