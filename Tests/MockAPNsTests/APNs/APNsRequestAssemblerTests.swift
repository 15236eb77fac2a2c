import Testing
@testable import MockAPNs

/// The request assembler fed directly with header and body bytes, as the HTTP/2 session feeds it: every request
/// carries its bytes in full, so the assembler's sharing of what repeats the previous request is what is tested.
@Suite("APNs request assembler: requests as collected")
struct APNsRequestAssemblerTests {
    /// One request to feed: pseudo-headers, regular headers, and the body in chunks.
    struct Sent {
        var method = "POST"
        var path = "/3/device/\(APNsRequestAssemblerTests.token)"
        var authority: String? = "127.0.0.1"
        var headers = APNsRequestAssemblerTests.base
        var body = ""
        /// The size of the body's chunks (one DATA frame each).
        var chunk = 16_384
    }

    static let token = String(repeating: "ab", count: 32)
    static let base: [(String, String)] = [
        ("apns-topic", "com.example.app"), ("apns-push-type", "alert"), ("authorization", "bearer eyJ.a.b"),
        ("user-agent", "provider/1.0 (a user agent longer than fifteen bytes)"),
    ]

    /// Feeds one field; false when the assembler refused it (too many header bytes).
    @discardableResult
    static func feed(_ assembler: APNsRequestAssembler, _ slot: Int, _ name: String, _ value: String) -> Bool {
        Array(name.utf8).withUnsafeBufferPointer { name in
            Array(value.utf8).withUnsafeBufferPointer { value in assembler.header(slot, name: name, value: value) }
        }
    }

    /// Feeds a request's headers and body into `slot`, as the session does for one stream (not completed).
    static func feed(_ sent: Sent, into assembler: APNsRequestAssembler, slot: Int) {
        assembler.begin(slot)
        var fields = [(":method", sent.method), (":scheme", "https"), (":path", sent.path)]
        if let authority = sent.authority { fields.append((":authority", authority)) }
        for (name, value) in fields + sent.headers { feed(assembler, slot, name, value) }
        let body = Array(sent.body.utf8)
        var start = 0
        while start < body.count {
            let end = min(body.count, start + sent.chunk)
            body[start..<end].withUnsafeBufferPointer { assembler.data(slot, $0) }
            start = end
        }
    }

    /// The requests, one stream each (streams 1, 3, 5, …), each closed once complete; slots alternate between two.
    static func assemble(_ requests: [Sent]) -> [APNsRequest] {
        let assembler = APNsRequestAssembler()
        return requests.enumerated().map { index, sent in
            let slot = index % 2
            feed(sent, into: assembler, slot: slot)
            defer { assembler.end(slot) }
            return assembler.complete(slot, streamID: Int32(2 * index + 1))
        }
    }

    static func names(_ request: APNsRequest) -> [String] { request.headers.map(\.name) }
    static func values(_ request: APNsRequest) -> [String] { request.headers.map(\.value) }

    @Test("a request repeated byte for byte shares the previous one's content; any difference gets its own")
    func sharedContent() {
        let path = "/3/device/\(Self.token)"
        let requests = Self.assemble([
            Sent(path: path, body: #"{"n":1}"#),
            Sent(path: path, body: #"{"n":1}"#),  // the same again
            Sent(path: path, body: #"{"n":2}"#),  // another payload
            Sent(path: path + "?x", body: #"{"n":2}"#),  // another path, same token
            Sent(path: path + "?x", authority: "localhost", body: #"{"n":2}"#),
            Sent(method: "PUT", path: path + "?x", authority: "localhost", body: #"{"n":2}"#),
        ])
        #expect(requests[1].content === requests[0].content)
        for i in 2..<6 { #expect(requests[i].content !== requests[i - 1].content, "request \(i)") }
        #expect(requests.map(\.streamID) == [1, 3, 5, 7, 9, 11])
        #expect(String(decoding: requests[2].body, as: UTF8.self) == #"{"n":2}"#)
        #expect(requests[3].path == path + "?x")
        #expect(requests[3].deviceToken == Self.token)
        #expect(requests[4].authority == "localhost")
        #expect(requests[5].method == "PUT")
        #expect(requests[5].authority == "localhost")
        #expect(requests.allSatisfy { $0.scheme == "https" && $0.fields.topic == "com.example.app" })
    }

    @Test("a header that differs, one more, one fewer, or another path each give that request's own headers")
    func differing() {
        var changed = Self.base
        changed[1] = ("apns-push-type", "background")
        let longer = Self.base + [("apns-priority", "5")]
        let shorter = Array(Self.base.prefix(2))
        let otherToken = String(repeating: "cd", count: 32)
        let requests = Self.assemble([
            Sent(), Sent(headers: changed), Sent(headers: longer), Sent(headers: shorter),
            Sent(path: "/3/device/\(otherToken)", headers: shorter),
        ])
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
    func bodies() {
        let bodies = [
            #"{"aps":{"alert":"hi"}}"#, #"{"aps":{"alert":"hi"}}"#, #"{"aps":{"alert":"hi"}} "#, #"{"aps":"#,
            #"{"aps":{"alert":"ho"}}"#, "",
        ]
        let requests = Self.assemble(bodies.map { Sent(body: $0) })
        #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == bodies)
        #expect(requests.allSatisfy { !$0.bodyTruncated })
    }

    @Test("a payload in chunks is compared chunk by chunk: shared when the same, its own from the chunk that differs")
    func chunkedBodies() {
        let body = String(repeating: "0123456789", count: 10)
        let other = String(body.dropLast()) + "x"
        let requests = Self.assemble([
            Sent(body: body, chunk: 7), Sent(body: body, chunk: 3), Sent(body: other, chunk: 30),
            Sent(body: String(body.prefix(45)), chunk: 10),
        ])
        let expected = [body, body, other, String(body.prefix(45))]
        #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == expected)
        #expect(requests[1].content === requests[0].content)
    }

    @Test("keeps 64 KiB of a longer payload and marks it truncated, for a repeated request too")
    func truncated() {
        let body = String(repeating: "x", count: 70_000)
        let requests = Self.assemble([Sent(body: body), Sent(body: body), Sent(body: "{}")])
        for request in requests.prefix(2) {
            #expect(request.body.count == APNsRequestAssembler.maxBodyBytes)
            #expect(request.bodyTruncated)
        }
        #expect(requests[1].content === requests[0].content)
        #expect(requests[2].body == Array("{}".utf8))
        #expect(!requests[2].bodyTruncated)
    }

    @Test("a header sent twice is still found when the request otherwise repeats the previous one")
    func duplicateAfterRepeat() {
        let requests = Self.assemble([Sent(), Sent(headers: Self.base + [("apns-topic", "com.example.other")])])
        #expect(requests[0].fields.duplicate == nil)
        #expect(requests[1].fields.duplicate == "apns-topic")
    }

    @Test("header fields: the first value of each, equal and hashed alike for equal headers")
    func headerFields() {
        let other = [("apns-topic", "com.example.other"), ("apns-priority", "5"), ("apns-priority", "10")]
        let requests = Self.assemble([Sent(), Sent(), Sent(headers: other), Sent(path: "/3/device/abcd")])
        let fields = requests.map(\.fields)
        #expect(fields[0].topic == "com.example.app" && fields[0].pushType == "alert")
        #expect(fields[0].authorization == "bearer eyJ.a.b" && fields[0].priority == nil && fields[0].apnsID == nil)
        #expect(fields[2].topic == "com.example.other" && fields[2].priority == "5" && fields[2].pushType == nil)
        #expect(fields[2].duplicate == "apns-priority")
        // The same headers again, after other ones and with another path: equal fields.
        #expect(fields[1] == fields[0] && fields[3] == fields[0] && fields[2] != fields[0])
        // Fields read from another assembler are other objects: equal by value, and hashed alike.
        let again = Self.assemble([Sent()])[0].fields
        #expect(again == fields[0] && again.hashValue == fields[0].hashValue)
        #expect(Set([fields[0], again, fields[2]]).count == 2)
    }

    @Test("`host` stands in for :authority on repeated requests too (aioapns)")
    func hostOnRepeat() {
        let headers = [("host", "api.sandbox.push.apple.com")] + Self.base
        let requests = Self.assemble([Sent(authority: nil, headers: headers), Sent(authority: nil, headers: headers)])
        #expect(requests.map(\.authority) == ["api.sandbox.push.apple.com", "api.sandbox.push.apple.com"])
    }

    @Test("a large header block (20 headers, 3 KB) is shared when repeated and noticed when one byte differs")
    func largeBlock() {
        let many = Self.base + (1...16).map { ("x-extra-\($0)", String(repeating: "v", count: 180)) }
        var changed = many
        changed[19].1 = String(repeating: "v", count: 179) + "w"
        let requests = Self.assemble([Sent(headers: many), Sent(headers: many), Sent(headers: changed)])
        #expect(requests[1].content === requests[0].content)
        #expect(Self.values(requests[1]) == many.map(\.1))
        #expect(Self.values(requests[2]) == changed.map(\.1))
        #expect(requests[2].headers.last?.value.hasSuffix("w") == true)
    }

    @Test("header bytes past 16 KiB (name, value and 32 per field) are refused, counted per request")
    func headerCap() {
        let assembler = APNsRequestAssembler()
        assembler.begin(0)
        let value = String(repeating: "v", count: 1000)
        // Fields of 1,000 + 7 + 32 bytes: 15 make 15,585, within 16,384; the 16th would make 16,624.
        let kept = (1...16).map { Self.feed(assembler, 0, "x-n-\($0 % 10)xx", value) }
        #expect(kept == Array(repeating: true, count: 15) + [false])
        assembler.end(0)
        assembler.begin(0)
        #expect(Self.feed(assembler, 0, "x-n-0xx", value), "a new stream in the slot starts counting again")
    }

    @Test("two streams collected at once, in two slots, each get their own request")
    func interleaved() {
        let assembler = APNsRequestAssembler()
        let other = String(repeating: "cd", count: 32)
        assembler.begin(0)
        assembler.begin(1)
        Self.feed(assembler, 0, ":method", "POST")
        Self.feed(assembler, 1, ":method", "POST")
        Self.feed(assembler, 0, ":path", "/3/device/\(Self.token)")
        Self.feed(assembler, 1, ":path", "/3/device/\(other)")
        for (name, value) in Self.base {
            Self.feed(assembler, 1, name, value)
            Self.feed(assembler, 0, name, name == "apns-push-type" ? "background" : value)
        }
        Array("{}".utf8).withUnsafeBufferPointer { assembler.data(1, $0) }
        let second = assembler.complete(1, streamID: 3)
        let first = assembler.complete(0, streamID: 1)
        #expect(second.deviceToken == other && first.deviceToken == Self.token)
        #expect(second.fields.pushType == "alert" && first.fields.pushType == "background")
        #expect(second.body == Array("{}".utf8) && first.body.isEmpty)
        #expect((first.streamID, second.streamID) == (1, 3))
    }

    @Test("a request that matched the previous one keeps its own bytes when another request completes in between")
    func completedInBetween() {
        let assembler = APNsRequestAssembler()
        var changed = Self.base
        changed[0] = ("apns-topic", "com.example.other")
        let body = #"{"aps":{"alert":"first"}}"#
        // The previous request.
        Self.feed(Sent(body: body), into: assembler, slot: 0)
        let previous = assembler.complete(0, streamID: 1)
        assembler.end(0)
        // Stream 3 repeats it, headers and the first half of the body, and waits (flow control, a slow client)...
        Self.feed(Sent(body: String(body.prefix(10))), into: assembler, slot: 0)
        // ...while stream 5, with other headers and another body, arrives whole.
        Self.feed(Sent(headers: changed, body: #"{"x":1,"aps":{"alert":"other"}}"#), into: assembler, slot: 1)
        let other = assembler.complete(1, streamID: 5)
        Array(body.utf8.dropFirst(10)).withUnsafeBufferPointer { assembler.data(0, $0) }
        let repeated = assembler.complete(0, streamID: 3)
        #expect(Self.values(repeated) == Self.base.map(\.1))
        #expect(repeated.fields.topic == "com.example.app")
        #expect(String(decoding: repeated.body, as: UTF8.self) == body)
        #expect(Self.values(other) == changed.map(\.1))
        #expect(Self.values(previous) == Self.base.map(\.1))
    }

    @Test("streams whose headers all come before their bodies (nghttp2 clients' order) share the previous request")
    func headersFirst() {
        let assembler = APNsRequestAssembler()
        let body = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        Self.feed(Sent(body: String(decoding: body, as: UTF8.self)), into: assembler, slot: 0)
        let first = assembler.complete(0, streamID: 1)
        assembler.end(0)
        for slot in 0..<3 { Self.feed(Sent(body: ""), into: assembler, slot: slot) }
        let repeated = (0..<3).map { slot in
            body.withUnsafeBufferPointer { assembler.data(slot, $0) }
            return assembler.complete(slot, streamID: Int32(3 + 2 * slot))
        }
        #expect(repeated.allSatisfy { $0.content === first.content })
        #expect(repeated.map(\.streamID) == [3, 5, 7])
    }

    @Test("a stream closed before it completed stops counting as collected: the next request becomes the previous one")
    func endedUncompleted() {
        let assembler = APNsRequestAssembler()
        // A stream reset halfway (the client gave up): begun, part of a request, ended without completing.
        Self.feed(Sent(body: String(repeating: "x", count: 8)), into: assembler, slot: 0)
        assembler.end(0)
        // A request completed after it becomes the previous one, so the same request again shares its content.
        let other = #"{"aps":{"alert":"other"}}"#
        Self.feed(Sent(body: other), into: assembler, slot: 1)
        let first = assembler.complete(1, streamID: 3)
        assembler.end(1)
        Self.feed(Sent(body: other), into: assembler, slot: 0)
        let again = assembler.complete(0, streamID: 5)
        assembler.end(0)
        #expect(again.content === first.content, "the reset stream still counted as being collected")
        #expect(String(decoding: again.body, as: UTF8.self) == other)
    }
}
