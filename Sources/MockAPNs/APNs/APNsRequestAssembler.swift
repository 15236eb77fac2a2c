import Foundation

/// Builds `APNsRequest`s from a connection's header and body bytes, stream by stream, and owns "the same as the
/// previous request".
///
/// The HTTP/2 session calls it for each header, body chunk and end of stream of a request stream, identified by the
/// stream's slot (the session hands slots out and reuses them). Providers send the same header block and often the
/// same payload push after push, so while a request repeats the previous one's bytes no String or array is made:
/// the previous request's are shared, down to its whole `APNsRequest.Content` when the whole request is the same.
/// That sharing also lets the journal keep one copy, and `ValidationMemo` recognise a payload by its storage.
/// Here too are the size caps and the derivation of `deviceToken` and `APNsHeaderFields`.
///
/// A connection has one, used on its event loop only and never re-entrantly, so its state skips Swift's dynamic
/// exclusivity checks (`@exclusivity(unchecked)`; the checks cost about 3 % of a push). It is a concrete final
/// class: each call is a direct one.
final class APNsRequestAssembler {
    /// A stream's index among the assembler's collections: the session hands slots out and reuses freed ones.
    typealias Slot = Int

    /// The most body bytes kept per request; more is counted as too large (the APNs limit is 5120).
    static let maxBodyBytes = 65_536
    /// The most header bytes (HTTP/2's count: name, value and 32 per field) accepted per request.
    static let maxHeaderBytes = 16_384

    /// A request being collected. A class, so that each header and data chunk updates it in place; one object per
    /// slot, reused from stream to stream.
    private final class Collecting {
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
        /// Whether the stream began and has not completed (or ended) yet.
        @exclusivity(unchecked) var collecting = false

        /// Back to a new stream's state (what it held is released now, not at reuse).
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
            collecting = false
        }
    }

    /// The collections, by slot, each kept by one retain of the assembler's own (given back in `deinit`), so that a
    /// call lends its slot's collection (`withStream`) without the retain and release a read from an array of
    /// references costs: one pair per begin, header, body chunk, completion and end, 11–13 a push
    /// (`bench/alloc-count.sh` with `RETAINS=1`).
    @exclusivity(unchecked) private var slots: [Unmanaged<Collecting>] = []
    /// How many streams began and have not completed or ended.
    @exclusivity(unchecked) private var collectingCount = 0

    /// The previous request's content: its strings, header array and body are shared with the next request where
    /// the bytes are the same, and the whole of it when the whole request is.
    ///
    /// A stream compares its bytes with it as they arrive and takes from it what matched when it completes, so it
    /// changes only when no other stream is being collected: a request completing while another is still arriving
    /// (its body held back by flow control, say) does not become the previous one, else the other would take bytes
    /// that are not its own.
    @exclusivity(unchecked) private var previous = APNsRequest.Content(
        method: "", path: "", authority: nil, scheme: nil, headers: [], body: [], bodyTruncated: false,
        deviceToken: nil, fields: APNsHeaderFields([])) {
        didSet { previousHeaders = previous.headers }
    }
    /// `previous.headers`, read by every header call without going through the content object.
    @exclusivity(unchecked) private var previousHeaders: [APNsHeader] = []

    /// An assembler with no previous request.
    init() {}

    deinit {
        for stream in slots { stream.release() }
    }

    /// Runs `body` on the collection in `slot`, lent without a retain: the assembler keeps it while it lives.
    @inline(__always)
    private func withStream<Result>(_ slot: Slot, _ body: (Collecting) -> Result) -> Result {
        slots[slot]._withUnsafeGuaranteedRef(body)
    }

    /// A request stream starts in `slot`: a slot never used before gets its collection (a freed one was emptied by
    /// `end`).
    func begin(_ slot: Slot) {
        while slots.count <= slot { slots.append(Unmanaged.passRetained(Collecting())) }
        withStream(slot) { stream in
            if !stream.collecting {
                stream.collecting = true
                collectingCount += 1
            }
        }
    }

    /// One header field of the request in `slot`, pseudo-headers included. False when the request's header bytes
    /// pass `maxHeaderBytes` (the session then resets the stream).
    func header(_ slot: Slot, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        withStream(slot) { header($0, name: name, value: value) }
    }

    /// `header(_:name:value:)` on the stream's collection.
    @inline(__always)
    private func header(_ stream: Collecting, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
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
        // While this request repeats the previous one's headers, no String or array is made.
        let position = stream.headerCount
        stream.headerCount += 1
        if stream.matchesPrevious, position < previousHeaders.count, previousHeaders[position].name.utf8Equals(name),
            previousHeaders[position].value.utf8Equals(value)
        {
            if name.count == 4, previousHeaders[position].name == "host" {
                stream.host = previousHeaders[position].value
            }
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

    /// A chunk of the request body in `slot`; bytes past `maxBodyBytes` are dropped and the body marked truncated.
    func data(_ slot: Slot, _ bytes: UnsafeBufferPointer<UInt8>) {
        withStream(slot) { data($0, bytes) }
    }

    /// `data(_:_:)` on the stream's collection.
    @inline(__always)
    private func data(_ stream: Collecting, _ bytes: UnsafeBufferPointer<UInt8>) {
        let room = Self.maxBodyBytes - stream.bodyCount
        let kept = bytes.count <= room ? bytes : UnsafeBufferPointer(rebasing: bytes.prefix(room))
        if bytes.count > room { stream.bodyTruncated = true }
        // The same payload as the previous request (a push fanned out to many devices): share its bytes.
        if stream.bodyMatchesPrevious {
            let previous = previous.body
            let matches =
                previous.count - stream.bodyCount >= kept.count
                && previous.withUnsafeBufferPointer { previousBytes in
                    guard let previousBase = previousBytes.baseAddress, let keptBase = kept.baseAddress else {
                        return kept.isEmpty
                    }
                    return memcmp(previousBase + stream.bodyCount, keptBase, kept.count) == 0
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

    /// The request in `slot` is complete (END_STREAM arrived on `streamID`): the request, which becomes the previous
    /// one. The body collected is released; the slot stays the stream's until `end`.
    func complete(_ slot: Slot, streamID: Int32) -> APNsRequest {
        withStream(slot) { complete($0, streamID: streamID) }
    }

    /// `complete(_:streamID:)` on the stream's collection.
    @inline(__always)
    private func complete(_ stream: Collecting, streamID: Int32) -> APNsRequest {
        if stream.collecting {
            stream.collecting = false
            collectingCount -= 1
        }
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
            if collectingCount == 0 { self.previous = content }
        }
        stream.body = []
        return APNsRequest(content, streamID: streamID)
    }

    /// The stream in `slot` closed: its collection is emptied for the slot's next stream.
    func end(_ slot: Slot) {
        withStream(slot) { stream in
            if stream.collecting { collectingCount -= 1 }
            stream.reset()
        }
    }

    /// `previous` when it holds exactly `bytes`, else a new String of them.
    private static func reuse(_ previous: String, ifEqualTo bytes: UnsafeBufferPointer<UInt8>) -> String {
        previous.utf8Equals(bytes) ? previous : String(decoding: bytes, as: UTF8.self)
    }

    /// What a stream collected: its own elements once they differed from the previous request's, else the previous
    /// request's array itself (shared) or, when the stream ended earlier, its first `count` elements.
    private static func collected<Element>(own: [Element], matchesPrevious: Bool, count: Int, previous: [Element])
        -> [Element]
    {
        if !matchesPrevious { return own }
        return count == previous.count ? previous : Array(previous.prefix(count))
    }
}
