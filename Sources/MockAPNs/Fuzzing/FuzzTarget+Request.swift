import Foundation
import NIOCore

extension FuzzTarget {
    /// The request target's clock: requests are decided at this time, and its good token was issued a minute before.
    static let requestTime = Date(timeIntervalSince1970: 1_700_000_000)

    /// The world the requests meet: the embedded default (sandbox, lenient, the test key trusted).
    static let requestWorld = Scenario.embeddedDefault().world

    /// The header names the request target picks from, each with a value a real provider would send.
    static let requestHeaders: [(name: String, goodValue: String)] = [
        (":method", "POST"),
        (":scheme", "https"),
        (":path", "/3/device/" + String(repeating: "0123456789abcdef", count: 4)),
        (":authority", "api.sandbox.push.apple.com"),
        ("authorization", "bearer " + ProviderTokenSigner.makeToken(
            teamID: TestCredentials.teamID, keyID: TestCredentials.keyID,
            issuedAt: Int64(requestTime.timeIntervalSince1970) - 60, key: testSigningKey)),
        ("apns-topic", "com.example.app"),
        ("apns-push-type", "alert"),
        ("apns-priority", "10"),
        ("apns-expiration", "0"),
        ("apns-id", "123E4567-E89B-12D3-A456-4266554400A0"),
        ("apns-collapse-id", "fuzz"),
        ("host", "api.push.apple.com"),
        ("content-length", "2"),
        ("content-type", "application/json"),
        ("user-agent", "mock-apns-fuzz"),
        ("te", "trailers"),
    ]

    /// A request as the fuzz input describes it, and so as the session must assemble it.
    struct SentRequest {
        /// The pseudo-headers (`:method`, `:path`, ...) by name; nghttp2 refuses a stream that repeats one.
        var pseudo: [String: String] = [:]
        /// The last `host` header, the authority when `:authority` is missing.
        var host: String?
        /// The regular headers, in order.
        var headers: [APNsHeader] = []
        /// The whole body sent.
        var body: [UInt8] = []
    }

    /// The input as one HTTP/2 connection: either frames built from a description (requests of chosen and raw
    /// headers and bodies) or raw bytes after the preface. Every request the session completes must be exactly
    /// the one sent; each is then decided twice (with the connection's validation memo and with a fresh one, which
    /// must agree) and answered. Returns the decisions, in the order the requests completed.
    @discardableResult
    static func runRequest(_ input: [UInt8]) throws(FuzzFinding) -> [Verdict] {
        var reader = FuzzInputReader(input)
        let mode = reader.byte()
        guard let session = try? HTTP2Session(settings: HTTP2Settings()) else {
            throw FuzzFinding("an HTTP/2 session could not be made")
        }
        var chunks: [[UInt8]] = []
        var sent: [Int32: SentRequest] = [:]
        var preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        HTTP2FuzzFrames.append(type: 4, flags: 0, stream: 0, payload: [], to: &preface)
        if mode & 0x80 != 0 {
            // Raw frames: whatever follows the preface (or replaces it).
            chunks = [mode & 0x40 != 0 ? [] : preface, reader.rest()]
        } else {
            chunks = [preface]
            for index in 0..<(1 + Int(mode % 4)) {
                let streamID = Int32(1 + 2 * index)
                let (request, frames) = describedRequest(&reader, streamID: streamID)
                sent[streamID] = request
                if mode & 0x20 != 0, var last = chunks.popLast() {
                    last += frames
                    chunks.append(last)
                } else {
                    chunks.append(frames)
                }
            }
        }

        let validator = APNsValidator(world: requestWorld)
        let connection = ConnectionInfo(id: 1, remoteAddress: "127.0.0.1:1")
        var auth = ProviderAuthState()
        let memo = ValidationMemo()
        var output = ByteBuffer()
        var decisions: [Verdict] = []
        for chunk in chunks {
            do {
                try session.receive(ByteBuffer(bytes: chunk))
            } catch {
                return decisions  // the connection would close
            }
            let completed = session.completedRequests
            session.completedRequests = []
            for request in completed {
                if let expected = sent[request.streamID] {
                    try check(request, against: expected)
                }
                var freshAuth = auth
                let decision = validator.validate(
                    request, connection: connection, auth: &auth, memo: memo, now: requestTime)
                let fresh = validator.validate(
                    request, connection: connection, auth: &freshAuth, memo: ValidationMemo(), now: requestTime)
                guard decision.outcome == fresh.outcome, decision.rule == fresh.rule,
                    decision.explanation == fresh.explanation, decision.notes == fresh.notes,
                    decision.auth == fresh.auth, decision.pushType == fresh.pushType
                else {
                    throw FuzzFinding(
                        "stream \(request.streamID): the memo decides \(decision.rule) (\(decision.explanation)), "
                            + "a fresh memo \(fresh.rule) (\(fresh.explanation))")
                }
                let response: APNsResponse
                switch decision.outcome {
                case .accepted:
                    response = .success(apnsID: "123E4567-E89B-12D3-A456-4266554400A0", apnsUniqueID: nil)
                case .rejected(let reason, _): response = .error(reason, apnsID: "123E4567-E89B-12D3-A456-4266554400A0")
                case .noAnswer: throw FuzzFinding("stream \(request.streamID): the validator decided no answer")
                }
                session.submitResponse(streamID: request.streamID, response: response)
                decisions.append(decision)
            }
            do {
                try session.send(into: &output)
            } catch {
                return decisions
            }
            output.clear()
        }
        return decisions
    }

    /// Reads one request's description: chosen pseudo-headers and good headers, then headers chosen or raw, then a
    /// body sent in up to three DATA frames. Returns the request and its frames.
    private static func describedRequest(
        _ reader: inout FuzzInputReader, streamID: Int32
    ) -> (SentRequest, [UInt8]) {
        var fields: [(name: [UInt8], value: [UInt8])] = []
        let standard = reader.byte()
        for (bit, index) in [(0x01, 0), (0x02, 1), (0x04, 2), (0x08, 3), (0x10, 4), (0x20, 5), (0x40, 6)]
        where standard & UInt8(bit) != 0 {
            fields.append((Array(requestHeaders[index].name.utf8), Array(requestHeaders[index].goodValue.utf8)))
        }
        for _ in 0..<reader.number(below: 12) {
            let nameChoice = Int(reader.byte())
            let name: [UInt8] =
                nameChoice < 2 * requestHeaders.count
                ? Array(requestHeaders[nameChoice % requestHeaders.count].name.utf8)
                : reader.bytes(reader.number(below: 24))
            let valueChoice = reader.byte()
            let good = requestHeaders.first { Array($0.name.utf8) == name }?.goodValue
            let value: [UInt8] =
                valueChoice < 128 ? Array((good ?? "x").utf8) : reader.bytes(reader.number(below: 96))
            fields.append((name, value))
        }
        let body: [UInt8] =
            standard & 0x80 != 0
            ? Array(#"{"aps":{"alert":"fuzz"}}"#.utf8) : reader.bytes(reader.length(upTo: 6000))

        var request = SentRequest()
        var block: [UInt8] = []
        for (name, value) in fields {
            HTTP2FuzzFrames.appendLiteralHeader(name: name, value: value, to: &block)
            let nameText = String(decoding: name, as: UTF8.self)
            let valueText = String(decoding: value, as: UTF8.self)
            if name.first == UInt8(ascii: ":") {
                request.pseudo[nameText] = valueText
            } else {
                if nameText == "host" { request.host = valueText }
                request.headers.append(APNsHeader(nameText, valueText))
            }
        }
        request.body = body
        var frames: [UInt8] = []
        HTTP2FuzzFrames.appendHeaders(block, stream: streamID, endStream: body.isEmpty, to: &frames)
        if !body.isEmpty {
            let cut1 = min(body.count, reader.length(upTo: body.count))
            let cut2 = cut1 + min(body.count - cut1, reader.length(upTo: body.count - cut1))
            let pieces = [body[..<cut1], body[cut1..<cut2], body[cut2...]].filter { !$0.isEmpty }
            for (index, piece) in pieces.enumerated() {
                let last = index == pieces.count - 1
                HTTP2FuzzFrames.append(type: 0, flags: last ? 1 : 0, stream: streamID, payload: piece, to: &frames)
            }
        }
        return (request, frames)
    }

    /// The assembled request is the one sent: pseudo-headers, headers in order, body.
    static func check(_ request: APNsRequest, against sent: SentRequest) throws(FuzzFinding) {
        let stream = "stream \(request.streamID)"
        guard request.method == sent.pseudo[":method"] ?? "", request.path == sent.pseudo[":path"] ?? "",
            request.scheme == sent.pseudo[":scheme"], request.authority == sent.pseudo[":authority"] ?? sent.host
        else {
            throw FuzzFinding(
                "\(stream): assembled \(request.method) \(request.path) \(request.scheme ?? "-") "
                    + "\(request.authority ?? "-"), sent \(sent.pseudo) host \(sent.host ?? "-")")
        }
        guard request.headers == sent.headers else {
            throw FuzzFinding("\(stream): assembled headers \(request.headers), sent \(sent.headers)")
        }
        let kept = Array(sent.body.prefix(APNsRequestAssembler.maxBodyBytes))
        guard request.body == kept, request.bodyTruncated == (sent.body.count > kept.count) else {
            throw FuzzFinding("\(stream): assembled a body of \(request.body.count) bytes, sent \(sent.body.count)")
        }
    }
}

/// Client frames for the request target, written by hand (no HPACK state: literal headers, never indexed).
enum HTTP2FuzzFrames {
    /// The largest frame payload a fresh session accepts.
    static let maxFrameSize = 16_384

    /// Appends one frame.
    static func append(
        type: UInt8, flags: UInt8, stream: Int32, payload: some Collection<UInt8>, to out: inout [UInt8]
    ) {
        let length = payload.count
        out += [UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
            UInt8(truncatingIfNeeded: length), type, flags]
        out += [UInt8(truncatingIfNeeded: stream >> 24), UInt8(truncatingIfNeeded: stream >> 16),
            UInt8(truncatingIfNeeded: stream >> 8), UInt8(truncatingIfNeeded: stream)]
        out += payload
    }

    /// Appends a header block as HEADERS plus CONTINUATION frames, each within the maximum frame size.
    static func appendHeaders(_ block: [UInt8], stream: Int32, endStream: Bool, to out: inout [UInt8]) {
        var start = 0
        repeat {
            let end = min(block.count, start + maxFrameSize)
            let isFirst = start == 0
            let flags: UInt8 = (end == block.count ? 0x4 : 0) | (isFirst && endStream ? 0x1 : 0)
            append(type: isFirst ? 1 : 9, flags: flags, stream: stream, payload: block[start..<end], to: &out)
            start = end
        } while start < block.count
    }

    /// Appends a "literal header field without indexing, new name" (RFC 7541 §6.2.2), no Huffman coding.
    static func appendLiteralHeader(name: [UInt8], value: [UInt8], to out: inout [UInt8]) {
        out.append(0)
        appendString(name, to: &out)
        appendString(value, to: &out)
    }

    private static func appendString(_ bytes: [UInt8], to out: inout [UInt8]) {
        // A 7-bit prefix integer (RFC 7541 §5.1).
        if bytes.count < 127 {
            out.append(UInt8(bytes.count))
        } else {
            out.append(127)
            var rest = bytes.count - 127
            while rest >= 128 {
                out.append(UInt8(rest % 128) | 0x80)
                rest /= 128
            }
            out.append(UInt8(rest))
        }
        out += bytes
    }
}
