import NIOCore
import Testing
@testable import MockAPNs

/// The server session fed hand-made client frames (`HTTP2ClientFrames`): requests come out of whole frames, and a
/// reset stream's slot is reused. What the requests share with the previous one is `APNsRequestAssemblerTests`'.
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
        #expect(session.submitResponse(streamID: 3, response: .success(apnsID: "A", apnsUniqueID: nil)))
        #expect(!session.submitResponse(streamID: 1, response: .success(apnsID: "B", apnsUniqueID: nil)))
    }

    @Test("a request whose body arrives after another request completed keeps its own headers")
    func bodyAfterAnotherRequest() throws {
        var other = Self.base
        other[0] = ("apns-topic", "com.example.other")
        var frames = HTTP2ClientFrames()
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base, body: #"{"n":1}"#)
        let waiting = frames.partialRequest(path: "/3/device/\(Self.token)", headers: Self.base)
        frames.request(path: "/3/device/\(Self.token)", headers: other, body: #"{"n":3}"#)
        frames.append(RawTCP.frame(type: 0x0, flags: 0x1, stream: waiting, payload: Array(#"{"n":2}"#.utf8)))
        let requests = try Self.collect(frames)
        try #require(requests.count == 3)
        #expect(requests.map(\.streamID) == [1, 5, 3])
        #expect(requests.map(\.fields.topic) == ["com.example.app", "com.example.other", "com.example.app"])
        #expect(Self.values(requests[2]) == Self.base.map(\.1))
        #expect(String(decoding: requests[2].body, as: UTF8.self) == #"{"n":2}"#)
    }

    /// The session after reading `frames` in one read.
    static func session(reading frames: HTTP2ClientFrames) throws -> HTTP2Session {
        let session = try HTTP2Session(settings: HTTP2Settings())
        var buffer = ByteBuffer()
        buffer.writeBytes(frames.bytes)
        try session.receive(buffer)
        return session
    }

    @Test("a lower stream after a higher one in the same read: PROTOCOL_ERROR, and the read goes on")
    func lowerStreamInOneRead() throws {
        var frames = HTTP2ClientFrames()
        for stream: UInt32 in [5, 3, 7] {
            frames.nextRequest(onStream: stream)
            frames.request(path: "/3/device/\(Self.token)", headers: Self.base)
        }
        let session = try Self.session(reading: frames)
        #expect(
            session.violation
                == HTTP2ConnectionViolation(
                    errorCode: 1, lastStreamID: 5, message: "HEADERS: stream 3 is below stream 5, already opened"))
        #expect(session.goawayLastStreamID == 5)
        #expect(session.completedRequests.map(\.streamID) == [5, 7])
    }

    @Test("HEADERS again on a stream the client reset in the same read: STREAM_CLOSED, and the read goes on")
    func headersAfterResetInOneRead() throws {
        var frames = HTTP2ClientFrames()
        frames.nextRequest(onStream: 5)
        let reset = frames.partialRequest(path: "/3/device/\(Self.token)", headers: Self.base)
        frames.reset(reset)
        frames.nextRequest(onStream: 5)
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base)
        frames.nextRequest(onStream: 7)
        frames.request(path: "/3/device/\(Self.token)", headers: Self.base)
        let session = try Self.session(reading: frames)
        // RFC 9113 §5.1: the client may send nothing on a stream after its own RST_STREAM (h2spec 5.1/9).
        #expect(
            session.violation
                == HTTP2ConnectionViolation(errorCode: 5, lastStreamID: 5, message: "HEADERS: stream 5 closed"))
        #expect(session.goawayLastStreamID == 5)
        #expect(session.completedRequests.map(\.streamID) == [7])
    }
}
