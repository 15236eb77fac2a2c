import CNGHTTP2
import Foundation
import NIOCore

/// One server-side HTTP/2 session on nghttp2 1.52+: bytes in, complete requests out, responses in, bytes out.
///
/// Callbacks only collect (headers, body bytes, completed streams); the owner acts after `receive` returns,
/// never from inside a callback (the rule swift-nio-http2's nghttp2-era session followed).
final class HTTP2Session {
    /// What the peer sent that cannot be an HTTP/2 session.
    struct ProtocolError: Error, CustomStringConvertible {
        var description: String
    }

    /// A request stream being collected, and later the body of its answer. A class, so that each header and
    /// data chunk updates it in place; one object per slot, reused from stream to stream.
    ///
    /// Its properties, like the session's own, skip Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`):
    /// both are touched only on the connection's event loop and never re-entrantly (callbacks only collect), and
    /// the checks cost about 3 % of a push.
    private final class Stream {
        @exclusivity(unchecked) var method = ""
        @exclusivity(unchecked) var path = ""
        @exclusivity(unchecked) var authority: String?
        @exclusivity(unchecked) var host: String?
        @exclusivity(unchecked) var scheme: String?
        /// The headers that differ from the previous request's; empty while every header so far matched.
        @exclusivity(unchecked) var headers: [APNsHeader] = []
        /// How many regular headers arrived.
        @exclusivity(unchecked) var headerCount = 0
        /// Whether every regular header so far equals, byte for byte, the previous request's at the same position.
        @exclusivity(unchecked) var matchesPrevious = true
        @exclusivity(unchecked) var headerBytes = 0
        /// The body, once it differs from the previous request's; empty while every byte so far matched.
        @exclusivity(unchecked) var body: [UInt8] = []
        /// How many body bytes arrived (kept ones, at most `maxBodyBytes`).
        @exclusivity(unchecked) var bodyCount = 0
        /// Whether the body so far equals the start of the previous request's body.
        @exclusivity(unchecked) var bodyMatchesPrevious = true
        @exclusivity(unchecked) var bodyTruncated = false
        @exclusivity(unchecked) var responseBody: [UInt8] = []
        @exclusivity(unchecked) var responseOffset = 0

        /// Back to a new stream's state, when its slot is freed (what it held is released now, not at reuse).
        func reset() {
            method = ""
            path = ""
            authority = nil
            host = nil
            scheme = nil
            headers = []
            headerCount = 0
            matchesPrevious = true
            headerBytes = 0
            body = []
            bodyCount = 0
            bodyMatchesPrevious = true
            bodyTruncated = false
            responseBody = []
            responseOffset = 0
        }
    }

    /// The most body bytes kept per request; more is counted as too large (the APNs limit is 5120).
    static let maxBodyBytes = 65_536
    /// The most header bytes accepted per request before the stream is reset.
    static let maxHeaderBytes = 16_384

    private var session: OpaquePointer?
    /// nghttp2's allocator for this session; released after the session (stored properties outlive `deinit`'s body).
    private let memory = HTTP2SessionMemory()
    /// The request streams' objects, by slot. nghttp2 keeps each open stream's slot (plus one) as the stream's user
    /// data, so finding a stream is nghttp2's own lookup, not a second hash table; closed streams' slots are reused.
    @exclusivity(unchecked) private var slots: [Stream] = []
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    private(set) var openStreamCount = 0
    /// Requests whose END_STREAM has arrived, in arrival order; the owner drains it after `receive`.
    @exclusivity(unchecked) var completedRequests: [APNsRequest] = []
    /// Control frames sent so far (counted as nghttp2 sends them).
    @exclusivity(unchecked) var controlFrames = HTTP2ControlFrameCounts()
    /// The lowest last-stream-id of a GOAWAY submitted or sent (`Int32.max` before any): a request above it is one
    /// the client was told was never processed, so it is neither recorded nor answered.
    @exclusivity(unchecked) var goawayLastStreamID = Int32.max
    /// The closed streams' exceptions, for RFC 9113 §5.1's frame rules.
    @exclusivity(unchecked) var history = HTTP2StreamHistory()
    /// The first frame that calls for a connection error nghttp2 would not raise; the owner sends the GOAWAY.
    @exclusivity(unchecked) var violation: HTTP2ConnectionViolation?
    /// The frame headers of the client's bytes, found before nghttp2 reads them.
    @exclusivity(unchecked) var walker = HTTP2FrameWalker()

    init(settings: HTTP2Settings) throws(ProtocolError) {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            throw ProtocolError(description: "nghttp2_session_callbacks_new failed")
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks, onBeginFrame)
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSend)

        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else {
            throw ProtocolError(description: "nghttp2_option_new failed")
        }
        defer { nghttp2_option_del(option) }
        // Closed streams need no priority bookkeeping: PRIORITY frames are ignored (doc).
        nghttp2_option_set_no_closed_streams(option, 1)

        var session: OpaquePointer?
        let userData = Unmanaged.passUnretained(self).toOpaque()
        var hooks = memory.hooks
        guard nghttp2_session_server_new3(&session, callbacks, userData, option, &hooks) == 0, let session else {
            throw ProtocolError(description: "nghttp2_session_server_new2 failed")
        }
        self.session = session

        var entries = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_HEADER_TABLE_SIZE.rawValue), value: settings.headerTableSize),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: settings.maxConcurrentStreams),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: settings.initialWindowSize),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue), value: settings.maxFrameSize),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: settings.maxHeaderListSize),
        ]
        guard nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count) == 0 else {
            throw ProtocolError(description: "nghttp2_submit_settings failed")
        }
        guard
            nghttp2_session_set_local_window_size(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, settings.connectionWindowSize) == 0
        else {
            throw ProtocolError(description: "nghttp2_session_set_local_window_size failed")
        }
    }

    deinit {
        nghttp2_session_del(session)
        values.deallocate()
    }

    /// Feeds plaintext bytes from the peer. Completed requests land in `completedRequests`.
    func receive(_ buffer: ByteBuffer) throws(ProtocolError) {
        guard let session else { return }
        let result = buffer.withUnsafeReadableBytes { bytes -> Int in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
            // Bytes from a frame that ends the connection on are not read (see `checkFrames`).
            let length = checkFrames(bytes) ?? bytes.count
            guard length > 0 else { return 0 }
            return nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), length)
        }
        if result < 0 {
            throw ProtocolError(description: String(cString: nghttp2_strerror(Int32(result))))
        }
    }

    /// Moves everything nghttp2 wants to send into `buffer`, as one batch for one TLS write.
    func send(into buffer: inout ByteBuffer) throws(ProtocolError) {
        guard let session else { return }
        while true {
            var data: UnsafePointer<UInt8>?
            let length = nghttp2_session_mem_send(session, &data)
            // A negative result is an error code, never a length.
            if length < 0 { throw ProtocolError(description: String(cString: nghttp2_strerror(Int32(length)))) }
            guard length > 0, let data else { return }
            buffer.writeBytes(UnsafeRawBufferPointer(start: data, count: length))
        }
    }

    /// Whether the session still wants to read or write; when neither, the connection can close.
    var isAlive: Bool {
        guard let session else { return false }
        return nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0
    }

    /// Whether nghttp2 has frames waiting to be sent.
    var wantsWrite: Bool {
        guard let session else { return false }
        return nghttp2_session_want_write(session) != 0
    }

    /// Whether the stream is still open (it can be answered).
    func isStreamOpen(_ streamID: Int32) -> Bool {
        guard let session else { return false }
        return nghttp2_session_find_stream(session, streamID) != nil && stream(streamID) != nil
    }

    /// Whether nghttp2 still holds the stream (a request being collected or answered, or a stream it has yet to
    /// reset). The request's own slot is looked at first: the stream a DATA frame continues is the last one found.
    func holdsStream(_ streamID: Int32) -> Bool {
        guard let session else { return false }
        return stream(streamID) != nil || nghttp2_session_find_stream(session, streamID) != nil
    }

    /// Answers a stream: one HEADERS frame, plus one DATA frame when there is a body.
    @discardableResult
    func submitResponse(streamID: Int32, response: APNsResponse) -> Bool {
        guard let session, let stream = stream(streamID) else {
            return false
        }
        stream.responseBody = response.body.map { Array($0.utf8) } ?? []
        stream.responseOffset = 0
        let hasBody = !stream.responseBody.isEmpty

        // Values are written into one reused buffer first, and pointed at only once all are written (the buffer
        // may move while it grows); names are static text. nghttp2 copies both during the submit.
        values.count = 0
        let status = response.status == 200 ? nil : values.append(String(response.status))
        let apnsID = values.append(response.id)
        let uniqueID = response.uniqueID.map { values.append($0) }
        return withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: 4) { nva -> Bool in
            var count = 0
            func add(_ name: StaticString, _ value: UnsafePointer<UInt8>, _ length: Int, indexed: Bool = true) {
                nva[count] = nghttp2_nv(
                    name: UnsafeMutablePointer(mutating: name.utf8Start),
                    value: UnsafeMutablePointer(mutating: value), namelen: name.utf8CodeUnitCount,
                    valuelen: length,
                    flags: UInt8(indexed ? NGHTTP2_NV_FLAG_NONE.rawValue : NGHTTP2_NV_FLAG_NO_INDEX.rawValue))
                count += 1
            }
            if let status {
                add(":status", values.base + status.offset, status.length)
            } else {
                let ok: StaticString = "200"
                add(":status", ok.utf8Start, ok.utf8CodeUnitCount)
            }
            // The ids differ in every answer: indexing them in HPACK's dynamic table would only evict useful entries.
            add("apns-id", values.base + apnsID.offset, apnsID.length, indexed: false)
            if let uniqueID { add("apns-unique-id", values.base + uniqueID.offset, uniqueID.length, indexed: false) }
            if hasBody {
                let json: StaticString = "application/json"
                add("content-type", json.utf8Start, json.utf8CodeUnitCount)
                var provider = nghttp2_data_provider(
                    source: nghttp2_data_source(ptr: nil), read_callback: readResponseBody)
                return nghttp2_submit_response(session, streamID, nva.baseAddress, count, &provider) == 0
            }
            return nghttp2_submit_response(session, streamID, nva.baseAddress, count, nil) == 0
        }
    }

    /// The response header values being submitted.
    @exclusivity(unchecked) private var values = ValueBytes()

    /// A growable byte buffer, reused from answer to answer, that hands out offsets rather than pointers.
    private struct ValueBytes {
        private(set) var base = UnsafeMutablePointer<UInt8>.allocate(capacity: 128)
        private var capacity = 128
        var count = 0

        /// Room for `length` more bytes; returns where they start.
        private mutating func reserve(_ length: Int) -> Int {
            if count + length > capacity {
                capacity = max(capacity * 2, count + length)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                grown.update(from: base, count: count)
                base.deallocate()
                base = grown
            }
            defer { count += length }
            return count
        }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, length: Int) {
            let offset = reserve(bytes.count)
            if let source = bytes.baseAddress { (base + offset).update(from: source, count: bytes.count) }
            return (offset, bytes.count)
        }

        mutating func append(_ text: String) -> (offset: Int, length: Int) {
            text.withUTF8Bytes { append($0) }
        }

        /// A generated id is written straight in, never through a String.
        mutating func append(_ id: APNsResponse.ID) -> (offset: Int, length: Int) {
            switch id {
            case .generated(let uuid, let uppercase):
                let offset = reserve(GeneratedUUID.textLength)
                uuid.write(uppercase: uppercase, into: base + offset)
                return (offset, GeneratedUUID.textLength)
            case .text(let text):
                return append(text)
            }
        }

        func deallocate() {
            base.deallocate()
        }
    }

    /// Resets a stream (RST_STREAM with `errorCode`).
    func resetStream(_ streamID: Int32, errorCode: UInt32 = NGHTTP2_INTERNAL_ERROR.rawValue) {
        guard let session else { return }
        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode)
    }

    /// Sends GOAWAY with APNs's JSON debug data, e.g. `{"reason":"Shutdown"}`, or with `debugText` as it is.
    func submitGoaway(
        lastStreamID: Int32? = nil, reason: String?, debugText: String? = nil,
        errorCode: UInt32 = NGHTTP2_NO_ERROR.rawValue
    ) {
        guard let session else { return }
        let last = lastStreamID ?? nghttp2_session_get_last_proc_stream_id(session)
        goawayLastStreamID = min(goawayLastStreamID, last)
        var debug: [UInt8] =
            reason.map { Array("{\"reason\":\"\(JSONText.escape($0))\"}".utf8) } ?? Array((debugText ?? "").utf8)
        _ = debug.withUnsafeMutableBufferPointer { bytes in
            nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, errorCode, bytes.baseAddress, bytes.count)
        }
    }

    /// Announces a new SETTINGS_MAX_CONCURRENT_STREAMS (APNs lowers it to 1 and raises it again, §2); false when
    /// nghttp2 could not submit it. Which value the client has is the owner's `StreamLimitAnnouncer`'s to track.
    func announceMaxConcurrentStreams(_ value: UInt32) -> Bool {
        guard let session else { return false }
        var entry = nghttp2_settings_entry(
            settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: value)
        return nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entry, 1) == 0
    }

    /// The request stream `streamID`, while it is open.
    private func stream(_ streamID: Int32) -> Stream? {
        // A request's headers, body and completion arrive one after another: the last stream found is kept.
        if streamID == lastStream.id { return slots[lastStream.slot] }
        guard let session, let slot = nghttp2_session_get_stream_user_data(session, streamID) else { return nil }
        lastStream = (streamID, Int(bitPattern: slot) - 1)
        return slots[lastStream.slot]
    }

    /// The last stream found (stream 0, the connection, is never a request's).
    @exclusivity(unchecked) private var lastStream: (id: Int32, slot: Int) = (0, 0)

    // MARK: - Callback bodies (called by the trampolines below; they only collect)

    fileprivate func beginHeaders(streamID: Int32, category: nghttp2_headers_category) {
        guard category == NGHTTP2_HCAT_REQUEST, let session else { return }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slots.append(Stream())
            slot = slots.count - 1
        }
        nghttp2_session_set_stream_user_data(session, streamID, UnsafeMutableRawPointer(bitPattern: slot + 1))
        openStreamCount += 1
        history.opened(streamID)
    }

    fileprivate func header(streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        // A header for a stream we do not track (trailers, a reset stream) is ignored.
        guard let stream = stream(streamID) else { return true }
        stream.headerBytes += name.count + value.count + 32
        guard stream.headerBytes <= Self.maxHeaderBytes else { return false }
        if name.first == UInt8(ascii: ":") {
            // By length and second byte: nghttp2 has already checked that only these four arrive on a request.
            switch (name.count, name.count > 1 ? name[1] : 0) {
            case (7, UInt8(ascii: "m")): stream.method = Self.reuse(previous.method, ifEqualTo: value)
            case (5, UInt8(ascii: "p")): stream.path = Self.reuse(previous.path, ifEqualTo: value)
            case (10, UInt8(ascii: "a")): stream.authority = Self.reuse(previous.authority ?? "", ifEqualTo: value)
            case (7, UInt8(ascii: "s")): stream.scheme = String(decoding: value, as: UTF8.self)
            default: break
            }
            return true
        }
        // Providers send the same header block push after push (token, topic, push type, user agent). While this
        // request repeats the previous one's headers, no String or array is made: the previous ones are shared, and
        // so are their bytes in the journal, where evicting a record then frees less.
        let position = stream.headerCount
        stream.headerCount += 1
        if stream.matchesPrevious, position < previousHeaders.count, previousHeaders[position].name.utf8Equals(name),
            previousHeaders[position].value.utf8Equals(value)
        {
            if name.count == 4, previousHeaders[position].name == "host" { stream.host = previousHeaders[position].value }
            return true
        }
        if stream.matchesPrevious {
            stream.matchesPrevious = false
            stream.headers.reserveCapacity(12)
            stream.headers.append(contentsOf: previousHeaders.prefix(position))
        }
        let header = APNsHeader(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        if header.name == "host" { stream.host = header.value }
        stream.headers.append(header)
        return true
    }


    /// The previous request's content: its strings, header array and body are shared with the next request where
    /// the bytes are the same, and the whole of it when the whole request is.
    @exclusivity(unchecked) private var previous = APNsRequest.Content(
        method: "", path: "", authority: nil, scheme: nil, headers: [], body: [], bodyTruncated: false,
        deviceToken: nil, fields: APNsHeaderFields([])) {
        didSet { previousHeaders = previous.headers }
    }
    /// `previous.headers`, read by every header callback without going through the content object.
    @exclusivity(unchecked) private var previousHeaders: [APNsHeader] = []

    /// `previous` when it holds exactly `bytes`, else a new String of them.
    private static func reuse(_ previous: String, ifEqualTo bytes: UnsafeBufferPointer<UInt8>) -> String {
        previous.utf8Equals(bytes) ? previous : String(decoding: bytes, as: UTF8.self)
    }

    fileprivate func dataChunk(streamID: Int32, bytes: UnsafeBufferPointer<UInt8>) {
        guard let stream = stream(streamID) else { return }
        let room = Self.maxBodyBytes - stream.bodyCount
        let kept = bytes.count <= room ? bytes : UnsafeBufferPointer(rebasing: bytes.prefix(room))
        if bytes.count > room { stream.bodyTruncated = true }
        // The same payload as the previous request (a push fanned out to many devices): share its bytes.
        if stream.bodyMatchesPrevious {
            let previous = previous.body
            let matches = previous.count - stream.bodyCount >= kept.count
                && previous.withUnsafeBufferPointer { previousBytes in
                    kept.isEmpty
                        || memcmp(previousBytes.baseAddress! + stream.bodyCount, kept.baseAddress!, kept.count) == 0
                }
            if matches {
                stream.bodyCount += kept.count
                return
            }
            stream.bodyMatchesPrevious = false
            stream.body.reserveCapacity(stream.bodyCount + kept.count)
            stream.body.append(contentsOf: previous.prefix(stream.bodyCount))
        }
        stream.body.append(contentsOf: kept)
        stream.bodyCount += kept.count
    }

    fileprivate func requestComplete(streamID: Int32) {
        guard let stream = stream(streamID) else { return }
        let previous = previous
        let headers = Self.collected(
            own: stream.headers, matchesPrevious: stream.matchesPrevious, count: stream.headerCount,
            previous: previous.headers)
        let body = Self.collected(
            own: stream.body, matchesPrevious: stream.bodyMatchesPrevious, count: stream.bodyCount,
            previous: previous.body)
        let sharesHeaders = stream.matchesPrevious && stream.headerCount == previous.headers.count
        let sharesBody = stream.bodyMatchesPrevious && stream.bodyCount == previous.body.count
        let samePath = stream.path == previous.path
        let authority = stream.authority ?? stream.host
        let content: APNsRequest.Content
        if sharesHeaders, sharesBody, samePath, stream.method == previous.method, authority == previous.authority,
            stream.scheme == previous.scheme, stream.bodyTruncated == previous.bodyTruncated
        {
            content = previous  // the same request again
        } else {
            // What the previous request derived from the same path or the same header block is reused.
            content = APNsRequest.Content(
                method: stream.method, path: stream.path, authority: authority, scheme: stream.scheme,
                headers: headers, body: body, bodyTruncated: stream.bodyTruncated,
                deviceToken: samePath ? previous.deviceToken : APNsRequest.deviceToken(in: stream.path),
                fields: sharesHeaders ? previous.fields : APNsHeaderFields(headers))
            self.previous = content
        }
        completedRequests.append(APNsRequest(content, streamID: streamID))
        stream.body = []
    }

    /// What a stream collected: its own elements once they differed from the previous request's, else the previous
    /// request's array itself (shared) or, when the stream ended earlier, its first `count` elements.
    private static func collected<Element>(own: [Element], matchesPrevious: Bool, count: Int, previous: [Element])
        -> [Element]
    {
        if !matchesPrevious { return own }
        return count == previous.count ? previous : Array(previous.prefix(count))
    }

    fileprivate func streamClosed(streamID: Int32) {
        guard let session, let slot = nghttp2_session_get_stream_user_data(session, streamID) else { return }
        let index = Int(bitPattern: slot) - 1
        if lastStream.id == streamID { lastStream = (0, 0) }
        slots[index].reset()
        freeSlots.append(index)
        openStreamCount -= 1
    }

    fileprivate func readBody(streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int) -> (Int, Bool) {
        guard let stream = stream(streamID) else { return (0, true) }
        let remaining = stream.responseBody.count - stream.responseOffset
        let count = min(remaining, length)
        stream.responseBody.withUnsafeBufferPointer { body in
            buffer.update(from: body.baseAddress! + stream.responseOffset, count: count)
        }
        stream.responseOffset += count
        return (count, stream.responseOffset >= stream.responseBody.count)
    }
}

// MARK: - C trampolines: guard the pointers, recover the session, call a Swift method, map failure.

/// Calls `body` with the session whose unretained pointer nghttp2 holds as user data. The session outlives every
/// callback (it owns the nghttp2 session), so it is lent without a retain and release per callback.
private func withOwner<Result>(
    _ userData: UnsafeMutableRawPointer?, orElse fallback: Result, _ body: (HTTP2Session) -> Result
) -> Result {
    guard let userData else { return fallback }
    return Unmanaged<HTTP2Session>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
}

private func onBeginHeaders(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
    withOwner(userData, orElse: ()) {
        $0.beginHeaders(streamID: frame.pointee.hd.stream_id, category: frame.pointee.headers.cat)
    }
    return 0
}

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

private func onFrameReceived(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame else { return 0 }
    let type = frame.pointee.hd.type
    let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
    if endStream, type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue) {
        withOwner(userData, orElse: ()) { $0.requestComplete(streamID: frame.pointee.hd.stream_id) }
    } else if type == UInt8(NGHTTP2_RST_STREAM.rawValue) {
        withOwner(userData, orElse: ()) { $0.history.reset(frame.pointee.hd.stream_id) }
    }
    return 0
}

private func onStreamClose(
    _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    withOwner(userData, orElse: ()) { $0.streamClosed(streamID: streamID) }
    return 0
}

private func readResponseBody(
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
