import CNGHTTP2
import Foundation
import NIOCore

/// One server-side HTTP/2 session on nghttp2 1.52+: bytes in, complete requests out, responses in, bytes out.
///
/// Its shape is nghttp2's own (as in nghttp2's `libevent-server.c`): a request stream begins with its headers, then
/// each header, each body chunk and its end arrive as callbacks (`HTTP2Session+Callbacks.swift`), and the stream
/// closes once answered. What a request means is not its business: it hands the bytes to its
/// `APNsRequestAssembler` per slot and collects the finished `APNsRequest`s. The frame rules nghttp2 leaves to the
/// application (RFC 9113 §5.1 on closed streams, control-frame counts) are in `HTTP2Session+Frames.swift`.
///
/// Callbacks only collect (headers, body bytes, completed streams); the owner acts after `receive` returns,
/// never from inside a callback (the rule swift-nio-http2's nghttp2-era session followed). The session's state is
/// touched only on the connection's event loop and never re-entrantly, so the hottest of it skips Swift's dynamic
/// exclusivity checks (`@exclusivity(unchecked)`; the checks cost about 3 % of a push).
final class HTTP2Session {
    /// What the peer sent that cannot be an HTTP/2 session.
    struct ProtocolError: Error, CustomStringConvertible {
        var description: String
    }

    /// The body of a stream's answer and how much of it nghttp2 has read.
    private struct AnswerBody {
        var bytes: [UInt8] = []
        var offset = 0
    }

    /// The nghttp2 session. Optional only because nghttp2 takes `self` as its user data, so `self` must exist before
    /// it does: it is set once in `init` (which throws when it cannot be made), never changed, and deleted in
    /// `deinit`. Each method's `guard let session` unwraps it; it never fails on a session `init` returned.
    private var session: OpaquePointer?
    /// nghttp2's allocator for this session; released after the session (stored properties outlive `deinit`'s body).
    private let memory = HTTP2SessionMemory()
    /// Builds each request stream's `APNsRequest`; called per header, body chunk and end of stream.
    private let assembler: APNsRequestAssembler
    /// The answer body of each stream slot. nghttp2 keeps each open request stream's slot (plus one) as the stream's
    /// user data, so finding a stream is nghttp2's own lookup, not a second hash table; closed streams' slots are
    /// reused. The assembler keeps its collections under the same slots.
    @exclusivity(unchecked) private var answerBodies: [AnswerBody] = []
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    /// The answer header values being submitted.
    private let values = HeaderValueBuffer()
    /// Request streams open (begun and not yet closed).
    private(set) var openStreamCount = 0
    /// Requests whose END_STREAM has arrived, in arrival order; the owner drains it after `receive`.
    @exclusivity(unchecked) var completedRequests: [APNsRequest] = []
    /// Control frames sent so far (counted as nghttp2 sends them).
    @exclusivity(unchecked) var controlFrames = HTTP2FrameCounts(.sent)
    /// Control frames the client sent so far (counted as nghttp2 reads them).
    @exclusivity(unchecked) var framesReceived = HTTP2FrameCounts(.received)
    /// The GOAWAY, RST_STREAM and stream-limit SETTINGS frames sent since the owner last took them
    /// (`takeSentFrames`): at most `sentFrameLimit`, the rest counted in `sentFramesDropped`.
    @exclusivity(unchecked) var sentFrames: [SentFrame] = []
    /// The frames left out of `sentFrames` since the owner last took them.
    @exclusivity(unchecked) var sentFramesDropped = 0
    /// The SETTINGS_MAX_CONCURRENT_STREAMS the last SETTINGS frame sent announced; `nil` before the first.
    @exclusivity(unchecked) var announcedStreamLimit: UInt32?
    /// The lowest last-stream-id of a GOAWAY submitted or sent (`Int32.max` before any): a request above it is one
    /// the client was told was never processed, so it is neither recorded nor answered.
    @exclusivity(unchecked) var goawayLastStreamID = Int32.max
    /// The closed streams' exceptions, for RFC 9113 §5.1's frame rules.
    @exclusivity(unchecked) var history = HTTP2StreamHistory()
    /// The first frame that calls for a connection error nghttp2 would not raise; the owner sends the GOAWAY.
    @exclusivity(unchecked) var violation: HTTP2ConnectionViolation?
    /// The frame headers of the client's bytes, found before nghttp2 reads them.
    @exclusivity(unchecked) var walker = HTTP2FrameWalker()

    /// A server session announcing `settings`, its requests built by `assembler`; it sends nothing until `send`.
    init(settings: HTTP2Settings, assembler: APNsRequestAssembler = APNsRequestAssembler()) throws(ProtocolError) {
        self.assembler = assembler
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            throw ProtocolError(description: "nghttp2_session_callbacks_new failed")
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        registerTrampolines(callbacks)

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
            throw ProtocolError(description: "nghttp2_session_server_new3 failed")
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
    }

    /// Feeds plaintext bytes from the peer. Completed requests land in `completedRequests`.
    func receive(_ buffer: ByteBuffer) throws(ProtocolError) {
        guard let session else { return }
        let result = buffer.withUnsafeReadableBytes { bytes -> Int in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
            let start = base.assumingMemoryBound(to: UInt8.self)
            // Bytes from a frame that ends the connection on are not read (see `checkFrames`).
            let (length, rechecks) = checkFrames(bytes)
            // A frame set aside is checked once the frames before it are read, then the rest is read.
            var read = 0
            for recheck in rechecks {
                if recheck.offset > read {
                    let result = nghttp2_session_mem_recv(session, start + read, recheck.offset - read)
                    guard result >= 0 else { return result }
                    read = recheck.offset
                }
                self.recheck(recheck)
            }
            guard length > read else { return 0 }
            return nghttp2_session_mem_recv(session, start + read, length - read)
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

    /// Whether the request stream is still open (it can be answered). A stream with a slot is one nghttp2 holds:
    /// the slot is found through nghttp2's stream (or the last one found, forgotten when it closes), so one lookup
    /// per answer is enough.
    func isStreamOpen(_ streamID: Int32) -> Bool {
        slot(of: streamID) != nil
    }

    /// Whether nghttp2 still holds the stream (a request being collected or answered, or a stream it has yet to
    /// reset). The request's own slot is looked at first: the stream a DATA frame continues is the last one found.
    func holdsStream(_ streamID: Int32) -> Bool {
        guard let session else { return false }
        return slot(of: streamID) != nil || nghttp2_session_find_stream(session, streamID) != nil
    }

    /// Answers a stream: one HEADERS frame, plus one DATA frame when there is a body.
    @discardableResult
    func submitResponse(streamID: Int32, response: APNsResponse) -> Bool {
        guard let session, let slot = slot(of: streamID) else {
            return false
        }
        let body = response.body.map { Array($0.utf8) } ?? []
        let hasBody = !body.isEmpty
        answerBodies[slot] = AnswerBody(bytes: body)

        // Values are written into one reused buffer first, and pointed at only once all are written (the buffer
        // may move while it grows); names are static text. nghttp2 copies both during the submit.
        values.count = 0
        let status = response.status == 200 ? nil : values.append(String(response.status))
        let apnsID = values.append(response.id)
        let uniqueID = response.uniqueID.map { values.append($0) }
        // A broadcast or channel answer (one `nil` check for a device push): apns-request-id, apns-channel-id.
        let broadcast = response.broadcast
        let channelID = broadcast?.channelID.map { values.append($0) }
        return withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: 5) { nva -> Bool in
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
            if broadcast == nil {
                add("apns-id", values.base + apnsID.offset, apnsID.length, indexed: false)
            } else {
                add("apns-request-id", values.base + apnsID.offset, apnsID.length, indexed: false)
            }
            if let channelID {
                add("apns-channel-id", values.base + channelID.offset, channelID.length, indexed: false)
            }
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

    /// The slot of request stream `streamID`, while it is open.
    private func slot(of streamID: Int32) -> APNsRequestAssembler.Slot? {
        // A request's headers, body and completion arrive one after another: the last stream found is kept.
        if streamID == lastStream.id { return lastStream.slot }
        guard let session, let slot = nghttp2_session_get_stream_user_data(session, streamID) else { return nil }
        lastStream = (streamID, Int(bitPattern: slot) - 1)
        return lastStream.slot
    }

    /// The last stream found (stream 0, the connection, is never a request's).
    @exclusivity(unchecked) private var lastStream: (id: Int32, slot: Int) = (0, 0)

    // MARK: - Callback bodies, in a stream's order (called by the trampolines in +Callbacks; they only collect)

    /// A HEADERS frame begins: a request opens a stream, which gets a slot.
    func beginHeaders(streamID: Int32, category: nghttp2_headers_category) {
        guard category == NGHTTP2_HCAT_REQUEST, let session else { return }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = answerBodies.count
            answerBodies.append(AnswerBody())
        }
        assembler.begin(slot)
        nghttp2_session_set_stream_user_data(session, streamID, UnsafeMutableRawPointer(bitPattern: slot + 1))
        openStreamCount += 1
        history.opened(streamID)
    }

    /// One header field; false when the request's headers are too large (nghttp2 then resets the stream).
    func header(streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        // A header for a stream we do not track (trailers, a reset stream) is ignored.
        guard let slot = slot(of: streamID) else { return true }
        return assembler.header(slot, name: name, value: value)
    }

    /// A chunk of a request's body.
    func dataChunk(streamID: Int32, bytes: UnsafeBufferPointer<UInt8>) {
        guard let slot = slot(of: streamID) else { return }
        assembler.data(slot, bytes)
    }

    /// END_STREAM arrived: the request is complete.
    func requestComplete(streamID: Int32) {
        guard let slot = slot(of: streamID) else { return }
        completedRequests.append(assembler.complete(slot, streamID: streamID))
    }

    /// The stream closed (answered, or reset by either side): its slot is freed.
    func streamClosed(streamID: Int32) {
        guard let session, let slot = nghttp2_session_get_stream_user_data(session, streamID) else { return }
        let index = Int(bitPattern: slot) - 1
        if lastStream.id == streamID { lastStream = (0, 0) }
        assembler.end(index)
        answerBodies[index] = AnswerBody()
        freeSlots.append(index)
        openStreamCount -= 1
    }

    /// Copies up to `length` bytes of a stream's answer body into `buffer`: how many, and whether that was the last.
    func readBody(streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int) -> (Int, Bool) {
        guard let slot = slot(of: streamID) else { return (0, true) }
        let offset = answerBodies[slot].offset
        let count = max(0, min(answerBodies[slot].bytes.count - offset, length))
        answerBodies[slot].bytes.withUnsafeBufferPointer { body in
            guard let base = body.baseAddress, count > 0 else { return }
            buffer.update(from: base + offset, count: count)
        }
        answerBodies[slot].offset = offset + count
        return (count, offset + count >= answerBodies[slot].bytes.count)
    }
}
