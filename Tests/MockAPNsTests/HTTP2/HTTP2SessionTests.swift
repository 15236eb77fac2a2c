import NIOCore
import Testing
@testable import MockAPNs

/// The server session fed hand-made client frames: HPACK literals without indexing, so that every request carries
/// its header bytes in full and the session's sharing of repeated headers is what is tested.
@Suite("HTTP/2 session: requests as collected")
struct HTTP2SessionTests {
    /// Frames of one client connection, built by hand.
    struct ClientFrames {
        var bytes: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        private var nextStream: UInt32 = 1

        init() {
            frame(type: 0x4, flags: 0, stream: 0, payload: [])  // SETTINGS, none changed
        }

        /// One POST: HEADERS (pseudo-headers, then `headers` in order), then DATA with END_STREAM.
        mutating func request(
            path: String, authority: String? = "127.0.0.1", headers: [(String, String)], body: String = "{}"
        ) {
            var block: [UInt8] = []
            var fields = [(":method", "POST"), (":scheme", "https"), (":path", path)]
            if let authority { fields.append((":authority", authority)) }
            for (name, value) in fields + headers {
                block.append(0x00)  // literal without indexing, new name
                Self.appendString(name, to: &block)
                Self.appendString(value, to: &block)
            }
            let stream = nextStream
            nextStream += 2
            frame(type: 0x1, flags: 0x4, stream: stream, payload: block)  // HEADERS, END_HEADERS
            // DATA frames of at most 16,384 bytes (SETTINGS_MAX_FRAME_SIZE), the last with END_STREAM.
            var chunks = stride(from: 0, to: body.utf8.count, by: 16_384).map {
                Array(Array(body.utf8)[$0..<min($0 + 16_384, body.utf8.count)])
            }
            if chunks.isEmpty { chunks = [[]] }
            for (index, chunk) in chunks.enumerated() {
                frame(type: 0x0, flags: index == chunks.count - 1 ? 0x1 : 0x0, stream: stream, payload: chunk)
            }
        }

        private static func appendString(_ string: String, to block: inout [UInt8]) {
            let bytes = Array(string.utf8)
            precondition(bytes.count < 127, "one-byte HPACK lengths only")
            block.append(UInt8(bytes.count))  // H = 0: not Huffman-coded
            block.append(contentsOf: bytes)
        }

        private mutating func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) {
            let length = UInt32(payload.count)
            bytes += [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            bytes += [UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)]
            bytes += payload
        }
    }

    static func collect(_ frames: ClientFrames, settings: HTTP2Settings = HTTP2Settings()) throws -> [APNsRequest] {
        let session = try HTTP2Session(settings: settings)
        var buffer = ByteBuffer()
        buffer.writeBytes(frames.bytes)
        try session.receive(buffer)
        return session.completedRequests
    }

    static let token = String(repeating: "ab", count: 32)
    static let base: [(String, String)] = [
        ("apns-topic", "com.example.app"), ("apns-push-type", "alert"), ("authorization", "bearer eyJ.a.b"),
        ("user-agent", "provider/1.0 (a user agent longer than fifteen bytes)"),
    ]

    static func names(_ request: APNsRequest) -> [String] { request.headers.map(\.name) }
    static func values(_ request: APNsRequest) -> [String] { request.headers.map(\.value) }

    @Test("a request that repeats the previous one's headers gets the same headers, fields and token")
    func repeated() throws {
        var frames = ClientFrames()
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base, body: #"{"n":1}"#)
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base, body: #"{"n":2}"#)
        let requests = try Self.collect(frames)
        try #require(requests.count == 2)
        for request in requests {
            #expect(Self.names(request) == Self.base.map(\.0))
            #expect(Self.values(request) == Self.base.map(\.1))
            #expect(request.deviceToken == Self.token)
            #expect(request.fields.topic == "com.example.app")
            #expect(request.fields.authorization == "bearer eyJ.a.b")
            #expect(request.fields.duplicate == nil)
            #expect(request.method == "POST")
            #expect(request.authority == "127.0.0.1")
        }
        #expect(requests.map(\.streamID) == [1, 3])
        #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"n":1}"#, #"{"n":2}"#])
    }

    @Test("a header that differs, one more, one fewer, or another path each give that request's own headers")
    func differing() throws {
        var changed = Self.base
        changed[1] = ("apns-push-type", "background")
        let longer = Self.base + [("apns-priority", "5")]
        let shorter = Array(Self.base.prefix(2))
        let otherToken = String(repeating: "cd", count: 32)
        var frames = ClientFrames()
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base)
        frames.request(path: "/3/device/\(Self.token)", headers: changed)
        frames.request(path: "/3/device/\(Self.token)", headers: longer)
        frames.request(path: "/3/device/\(Self.token)", headers: shorter)
        frames.request(path: "/3/device/\(otherToken)", headers: shorter)
        let requests = try Self.collect(frames)
        try #require(requests.count == 5)
        let expected = [Self.base, changed, longer, shorter, shorter]
        for (request, headers) in zip(requests, expected) {
            #expect(Self.names(request) == headers.map(\.0))
            #expect(Self.values(request) == headers.map(\.1))
        }
        #expect(requests[1].fields.pushType == "background")
        #expect(requests[2].fields.priority == "5")
        #expect(requests[3].fields.authorization == nil)
        #expect(requests[3].deviceToken == Self.token)
        #expect(requests[4].deviceToken == otherToken)
    }

    @Test("each request gets its own payload: the same, a longer, a shorter, another and an empty one")
    func bodies() throws {
        let bodies = [
            #"{"aps":{"alert":"hi"}}"#, #"{"aps":{"alert":"hi"}}"#, #"{"aps":{"alert":"hi"}} "#, #"{"aps":"#,
            #"{"aps":{"alert":"ho"}}"#, "",
        ]
        var frames = ClientFrames()
        for body in bodies { frames.request(path: "/3/device/\(Self.token)", headers: Self.base, body: body) }
        let requests = try Self.collect(frames)
        #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == bodies)
        #expect(requests.allSatisfy { !$0.bodyTruncated })
    }

    @Test("keeps 64 KiB of a longer payload and marks it truncated, for a repeated request too")
    func truncated() throws {
        let body = String(repeating: "x", count: 70_000)
        var frames = ClientFrames()
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base, body: body)
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base, body: body)
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base, body: "{}")
        // A stream window large enough for the client to send 70,000 bytes without waiting for WINDOW_UPDATE.
        var settings = HTTP2Settings()
        settings.initialWindowSize = 1 << 20
        let requests = try Self.collect(frames, settings: settings)
        try #require(requests.count == 3)
        for request in requests.prefix(2) {
            #expect(request.body.count == HTTP2Session.maxBodyBytes)
            #expect(request.bodyTruncated)
        }
        #expect(requests[2].body == Array("{}".utf8))
        #expect(!requests[2].bodyTruncated)
    }

    @Test("a header sent twice is still found when the request otherwise repeats the previous one")
    func duplicateAfterRepeat() throws {
        var frames = ClientFrames()
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base)
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base + [("apns-topic", "com.example.other")])
        let requests = try Self.collect(frames)
        try #require(requests.count == 2)
        #expect(requests[0].fields.duplicate == nil)
        #expect(requests[1].fields.duplicate == "apns-topic")
    }

    @Test("`host` stands in for :authority on repeated requests too (aioapns)")
    func hostOnRepeat() throws {
        let headers = [("host", "api.sandbox.push.apple.com")] + Self.base
        var frames = ClientFrames()
        frames.request(path: "/3/device/\(Self.token)", authority: nil, headers: headers)
        frames.request(path: "/3/device/\(Self.token)", authority: nil, headers: headers)
        let requests = try Self.collect(frames)
        try #require(requests.count == 2)
        #expect(requests.map(\.authority) == ["api.sandbox.push.apple.com", "api.sandbox.push.apple.com"])
    }
}
