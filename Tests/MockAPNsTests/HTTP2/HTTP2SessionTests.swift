import NIOCore
import Testing
@testable import MockAPNs

/// The server session fed hand-made client frames (`HTTP2ClientFrames`): every request carries its header bytes
/// in full, so the session's sharing of repeated headers is what is tested.
@Suite("HTTP/2 session: requests as collected")
struct HTTP2SessionTests {
    static func collect(_ frames: HTTP2ClientFrames, settings: HTTP2Settings = HTTP2Settings()) throws -> [APNsRequest] {
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
        var frames = HTTP2ClientFrames()
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

    @Test("a request repeated byte for byte shares the previous one's content; any difference gets its own")
    func sharedContent() throws {
        let path = "/3/device/\(Self.token)"
        var frames = HTTP2ClientFrames()
        frames.request(path: path, headers: Self.base, body: #"{"n":1}"#)
        frames.request(path: path, headers: Self.base, body: #"{"n":1}"#)  // the same again
        frames.request(path: path, headers: Self.base, body: #"{"n":2}"#)  // another payload
        frames.request(path: path + "?x", headers: Self.base, body: #"{"n":2}"#)  // another path, same token
        frames.request(path: path + "?x", authority: "localhost", headers: Self.base, body: #"{"n":2}"#)
        frames.request(path: path + "?x", authority: "localhost", headers: Self.base, body: #"{"n":2}"#, method: "PUT")
        let requests = try Self.collect(frames)
        try #require(requests.count == 6)
        #expect(requests[1].content === requests[0].content)
        for i in 2..<6 { #expect(requests[i].content !== requests[i - 1].content, "request \(i)") }
        #expect(requests.map(\.streamID) == [1, 3, 5, 7, 9, 11])
        #expect(String(decoding: requests[2].body, as: UTF8.self) == #"{"n":2}"#)
        #expect(requests[3].path == path + "?x")
        #expect(requests[3].deviceToken == Self.token)
        #expect(requests[4].authority == "localhost")
        #expect(requests[5].method == "PUT")
        #expect(requests[5].authority == "localhost")
    }

    @Test("a header that differs, one more, one fewer, or another path each give that request's own headers")
    func differing() throws {
        var changed = Self.base
        changed[1] = ("apns-push-type", "background")
        let longer = Self.base + [("apns-priority", "5")]
        let shorter = Array(Self.base.prefix(2))
        let otherToken = String(repeating: "cd", count: 32)
        var frames = HTTP2ClientFrames()
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
        var frames = HTTP2ClientFrames()
        for body in bodies { frames.request(path: "/3/device/\(Self.token)", headers: Self.base, body: body) }
        let requests = try Self.collect(frames)
        #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == bodies)
        #expect(requests.allSatisfy { !$0.bodyTruncated })
    }

    @Test("keeps 64 KiB of a longer payload and marks it truncated, for a repeated request too")
    func truncated() throws {
        let body = String(repeating: "x", count: 70_000)
        var frames = HTTP2ClientFrames()
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
        var frames = HTTP2ClientFrames()
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
        var frames = HTTP2ClientFrames()
        frames.request(path: "/3/device/\(Self.token)", authority: nil, headers: headers)
        frames.request(path: "/3/device/\(Self.token)", authority: nil, headers: headers)
        let requests = try Self.collect(frames)
        try #require(requests.count == 2)
        #expect(requests.map(\.authority) == ["api.sandbox.push.apple.com", "api.sandbox.push.apple.com"])
    }

    @Test("a stream reset mid-request frees its slot; the next stream in it starts empty")
    func slotReuse() throws {
        let session = try HTTP2Session(settings: HTTP2Settings())
        var frames = HTTP2ClientFrames()
        let first = frames.partialRequest(
            path: "/3/device/\(Self.token)", headers: Self.base + [("apns-priority", "5")], bodyPrefix: #"{"half":"#)
        frames.reset(first)
        let other = String(repeating: "cd", count: 32)
        frames.request(path: "/3/device/\(other)", headers: [("apns-topic", "com.example.other")], body: "{}")
        var buffer = ByteBuffer()
        buffer.writeBytes(frames.bytes)
        try session.receive(buffer)
        let requests = session.completedRequests
        try #require(requests.count == 1)
        #expect(requests[0].streamID == 3)
        #expect(requests[0].deviceToken == other)
        #expect(Self.names(requests[0]) == ["apns-topic"])
        #expect(requests[0].body == Array("{}".utf8))
        #expect(session.openStreamCount == 1, "stream 1 closed by the reset, stream 3 awaits its answer")
        #expect(session.isStreamOpen(3) && !session.isStreamOpen(1))
        #expect(session.submitResponse(streamID: 3, response: .success(apnsID: "A", uniqueID: nil)))
        #expect(!session.submitResponse(streamID: 1, response: .success(apnsID: "B", uniqueID: nil)))
    }

    @Test("a large header block (20 headers, 3 KB) is shared when repeated and noticed when one byte differs")
    func largeBlock() throws {
        let many = Self.base + (1...16).map { ("x-extra-\($0)", String(repeating: "v", count: 180)) }
        var changed = many
        changed[19].1 = String(repeating: "v", count: 179) + "w"
        var frames = HTTP2ClientFrames()
        frames.request(path: "/3/device/\(Self.token)", headers: many)
        frames.request(path: "/3/device/\(Self.token)", headers: many)
        frames.request(path: "/3/device/\(Self.token)", headers: changed)
        var settings = HTTP2Settings()
        settings.maxHeaderListSize = 65_536
        let requests = try Self.collect(frames, settings: settings)
        try #require(requests.count == 3)
        #expect(requests[1].content === requests[0].content)
        #expect(Self.values(requests[1]) == many.map(\.1))
        #expect(Self.values(requests[2]) == changed.map(\.1))
        #expect(requests[2].headers.last?.value.hasSuffix("w") == true)
    }
}
