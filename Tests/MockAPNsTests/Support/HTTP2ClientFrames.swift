/// The frames of one HTTP/2 client connection, built by hand: the preface, an empty SETTINGS, then requests
/// whose header blocks are HPACK literals without indexing (every request carries its header bytes in full).
struct HTTP2ClientFrames {
    private(set) var bytes: [UInt8] = RawTCP.preface
    private var nextStream: UInt32 = 1

    init() {
        bytes += RawTCP.frame(type: 0x4)  // SETTINGS, none changed
    }

    /// One POST: HEADERS (pseudo-headers, then `headers` in order), then DATA frames with END_STREAM on the last.
    mutating func request(
        path: String, authority: String? = "127.0.0.1", headers: [(String, String)], body: String = "{}",
        method: String = "POST"
    ) {
        let stream = open(path: path, authority: authority, headers: headers, method: method)
        send(Array(body.utf8), on: stream, endStream: true)
    }

    /// HEADERS and the first `bodyPrefix` bytes of a body, without END_STREAM: a request still arriving.
    /// Returns its stream id.
    mutating func partialRequest(path: String, headers: [(String, String)], bodyPrefix: String = "") -> UInt32 {
        let stream = open(path: path, authority: "127.0.0.1", headers: headers)
        if !bodyPrefix.isEmpty { send(Array(bodyPrefix.utf8), on: stream, endStream: false) }
        return stream
    }

    /// RST_STREAM with CANCEL (8), as a client gives up on a request.
    mutating func reset(_ stream: UInt32) {
        bytes += RawTCP.frame(type: 0x3, stream: stream, payload: [0, 0, 0, 8])
    }

    /// Hand-made bytes (a frame no request helper builds), sent as they are.
    mutating func append(_ raw: [UInt8]) {
        bytes += raw
    }

    /// The next request goes on `stream`: a client reusing an id or going back to a lower one.
    mutating func nextRequest(onStream stream: UInt32) {
        nextStream = stream
    }

    /// The stream the last request went on (0 before any).
    var lastStream: UInt32 { nextStream > 1 ? nextStream - 2 : 0 }

    /// The bytes so far, taken out: what follows is a later write on the same connection.
    mutating func takeBytes() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    private mutating func open(
        path: String, authority: String?, headers: [(String, String)], method: String = "POST"
    ) -> UInt32 {
        var block: [UInt8] = []
        var fields = [(":method", method), (":scheme", "https"), (":path", path)]
        if let authority { fields.append((":authority", authority)) }
        for (name, value) in fields + headers {
            block.append(0x00)  // literal without indexing, new name
            Self.appendString(name, to: &block)
            Self.appendString(value, to: &block)
        }
        let stream = nextStream
        nextStream += 2
        bytes += RawTCP.frame(type: 0x1, flags: 0x4, stream: stream, payload: block)  // HEADERS, END_HEADERS
        return stream
    }

    /// DATA frames of at most 16,384 bytes (SETTINGS_MAX_FRAME_SIZE); END_STREAM on the last when asked.
    private mutating func send(_ body: [UInt8], on stream: UInt32, endStream: Bool) {
        var chunks = stride(from: 0, to: body.count, by: 16_384).map { Array(body[$0..<min($0 + 16_384, body.count)]) }
        if chunks.isEmpty { chunks = [[]] }
        for (index, chunk) in chunks.enumerated() {
            let last = index == chunks.count - 1
            bytes += RawTCP.frame(type: 0x0, flags: last && endStream ? 0x1 : 0x0, stream: stream, payload: chunk)
        }
    }

    /// An HPACK string literal, not Huffman-coded: the length as a 7-bit-prefix integer, then the bytes.
    private static func appendString(_ string: String, to block: inout [UInt8]) {
        let bytes = Array(string.utf8)
        if bytes.count < 127 {
            block.append(UInt8(bytes.count))
        } else {
            block.append(127)
            var rest = bytes.count - 127
            while rest >= 128 {
                block.append(UInt8(rest % 128) | 0x80)
                rest /= 128
            }
            block.append(UInt8(rest))
        }
        block.append(contentsOf: bytes)
    }
}

extension RawTCP {
    /// The frames in a server's output, as (type, flags, stream); a truncated last frame is left out.
    static func frames(in bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32)] {
        var frames: [(type: UInt8, flags: UInt8, stream: UInt32)] = []
        var index = 0
        while index + 9 <= bytes.count {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            let stream = UInt32(bytes[index + 5] & 0x7F) << 24 | UInt32(bytes[index + 6]) << 16
                | UInt32(bytes[index + 7]) << 8 | UInt32(bytes[index + 8])
            guard index + 9 + length <= bytes.count else { break }
            frames.append((bytes[index + 3], bytes[index + 4], stream))
            index += 9 + length
        }
        return frames
    }
}
