/// What an edit-and-replay changes of a recorded request (`POST /v1/requests/{seq}/replay` with a body): the
/// whole header list, the payload, or both; what it leaves `nil` is sent as recorded. The method, path (with the
/// device token) and authority are always the recorded ones.
///
/// The bounds are the APNs port's: a payload of at most 65,536 bytes (the most the port reads of a body; APNs
/// itself takes at most 4096, or 5120 for VoIP, and answers more with 413 PayloadTooLarge), and headers of at most
/// 16,384 bytes as HTTP/2 counts them (name, value and 32 per header, pseudo-headers included), which also bounds
/// their number. Header names and values must be ones an HTTP/2 client could send: lower case, no pseudo-headers,
/// no connection-specific headers, no line breaks or NUL in values.
public struct ReplayEdit: Sendable, Hashable {
    /// The headers to send instead of the recorded ones, in order (duplicates kept); `nil`: the recorded ones.
    public var headers: [APNsHeader]?
    /// The payload bytes to send instead of the recorded ones; `nil`: the recorded ones.
    public var payload: [UInt8]?

    /// An edit of the headers, the payload, or both.
    public init(headers: [APNsHeader]? = nil, payload: [UInt8]? = nil) {
        self.headers = headers
        self.payload = payload
    }

    /// An edit with the payload given as text (sent as its UTF-8 bytes).
    public init(headers: [APNsHeader]? = nil, payload: String) {
        self.init(headers: headers, payload: Array(payload.utf8))
    }

    /// The members a replay body may have.
    static let members = ["headers", "payload"]

    /// HTTP/2 refuses these in a request (RFC 9113 §8.2.2); nghttp2 resets a stream that carries one.
    static let connectionSpecificHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
    ]

    /// The edit a replay body asks for: `{"headers": [["name", "value"], …], "payload": "<text>"}`, either member
    /// optional (`null` is the same as leaving it out); `nil` for an empty body (replay as recorded).
    public static func parse(_ text: String) throws(InputError) -> ReplayEdit? {
        guard text.contains(where: { !$0.isWhitespace }) else { return nil }
        let json: JSONValue
        do { json = try JSONParser.parse(text) } catch {
            throw InputError(
                "the replay body is not JSON (\(error)); send {\"headers\": [[\"name\", \"value\"], …], "
                    + "\"payload\": \"<text>\"}, either member optional, or no body to replay the request as recorded")
        }
        guard let object = json.objectMembers else {
            throw InputError(
                "the replay body must be a JSON object {\"headers\": [[\"name\", \"value\"], …], \"payload\": "
                    + "\"<text>\"}, got \(Self.kind(of: json))")
        }
        var seen: Set<String> = []
        for (name, _) in object {
            guard members.contains(name) else {
                throw InputError(
                    "the replay body has an unknown member '\(name)'\(NameSuggestion.hint(for: name, among: members)); "
                        + "it takes headers and payload")
            }
            guard seen.insert(name).inserted else { throw InputError("the replay body has '\(name)' twice") }
        }
        var edit = ReplayEdit()
        if let headers = object.first(where: { $0.0 == "headers" })?.1, headers != .null {
            edit.headers = try Self.headers(headers)
        }
        if let payload = object.first(where: { $0.0 == "payload" })?.1, payload != .null {
            guard let text = payload.stringValue else {
                throw InputError(
                    "payload must be a string, the payload's text (a JSON payload goes in as text: "
                        + "\"{\\\"aps\\\":{}}\"), got \(Self.kind(of: payload))")
            }
            edit.payload = Array(text.utf8)
        }
        return edit
    }

    /// Checks the edit against the APNs port's bounds and what an HTTP/2 client can send; `pseudoHeaderBytes` is
    /// what the recorded request's pseudo-headers count against the header bytes, `payloadSize` the size of the
    /// payload that will be sent (edited or recorded), which a `content-length` header must state.
    public func check(pseudoHeaderBytes: Int, payloadSize: Int) throws(InputError) {
        if let payload, payload.count > APNsRequestAssembler.maxBodyBytes {
            throw InputError(
                "payload is \(payload.count) bytes, over \(APNsRequestAssembler.maxBodyBytes), the most the APNs port "
                    + "reads of a body (APNs itself takes at most 4096, or 5120 for a VoIP push)")
        }
        guard let headers else { return }
        var bytes = pseudoHeaderBytes
        for (index, header) in headers.enumerated() {
            try Self.check(header, at: index)
            bytes += header.name.utf8.count + header.value.utf8.count + 32
            if header.name == "content-length", header.value != String(payloadSize) {
                throw InputError(
                    "headers[\(index)] content-length is '\(header.value)' but the payload is \(payloadSize) bytes: "
                        + "HTTP/2 refuses a request whose data differs from its content-length (RFC 9113 §8.1.1); "
                        + "correct it or leave the header out")
            }
        }
        if bytes > APNsRequestAssembler.maxHeaderBytes {
            throw InputError(
                "headers come to \(bytes) bytes as HTTP/2 counts them (name, value and 32 per header, with the "
                    + "recorded method, path and authority), over \(APNsRequestAssembler.maxHeaderBytes), the most "
                    + "the APNs port takes")
        }
    }

    /// The header list of a replay body: an array of `["name", "value"]` pairs of strings.
    private static func headers(_ json: JSONValue) throws(InputError) -> [APNsHeader] {
        guard let items = json.arrayValue else {
            throw InputError(
                "headers must be an array of [\"name\", \"value\"] pairs, got \(Self.kind(of: json))")
        }
        var headers: [APNsHeader] = []
        for (index, item) in items.enumerated() {
            guard let pair = item.arrayValue, pair.count == 2, let name = pair[0].stringValue,
                let value = pair[1].stringValue
            else {
                throw InputError(
                    "headers[\(index)] must be a [\"name\", \"value\"] pair of strings, got "
                        + item.jsonText.prefix(80))
            }
            headers.append(APNsHeader(name, value))
        }
        return headers
    }

    /// Whether `header` is one an HTTP/2 client could send, as nghttp2 checks a request's fields.
    private static func check(_ header: APNsHeader, at index: Int) throws(InputError) {
        let name = header.name
        let field = "headers[\(index)]"
        guard !name.isEmpty else { throw InputError("\(field) has an empty name") }
        if name.hasPrefix(":") {
            throw InputError(
                "\(field) is the pseudo-header '\(name)': a replay sends the recorded method, path and authority; "
                    + "edit only regular headers")
        }
        if name.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
            throw InputError(
                "\(field) name '\(name)' has upper-case letters; HTTP/2 sends header names in lower case: "
                    + "'\(name.lowercased())'")
        }
        let token = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~".utf8)
        if let bad = name.utf8.first(where: { !token.contains($0) }) {
            throw InputError(
                "\(field) name '\(name)' has \(Self.describe(byte: bad)), which a header name cannot have "
                    + "(letters, digits and !#$%&'*+-.^_`|~ only)")
        }
        if connectionSpecificHeaders.contains(name) || (name == "te" && header.value != "trailers") {
            throw InputError(
                "\(field) is '\(name)', a connection-specific header, which HTTP/2 forbids in a request (RFC 9113 "
                    + "§8.2.2): a client could not send it")
        }
        if let bad = header.value.utf8.first(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) {
            throw InputError(
                "\(field) value of '\(name)' has \(Self.describe(byte: bad)), which an HTTP/2 header value cannot "
                    + "carry")
        }
    }

    private static func describe(byte: UInt8) -> String {
        switch byte {
        case 0: "a NUL byte"
        case 0x0A: "a line feed"
        case 0x0D: "a carriage return"
        case 0x20: "a space"
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        default: "the byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    private static func kind(of json: JSONValue) -> String {
        switch json {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
