import Foundation

/// One header field as it arrived, name lower-cased by HTTP/2.
public struct APNsHeader: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A request as the HTTP/2 layer collected it: pseudo-headers, headers in order, and the body.
///
/// It carries no interpretation: the validator decides what it means. The APNs headers are indexed once, when
/// the headers are set, because every check reads them.
///
/// What arrived is kept in one shared, immutable `Content`: a connection that repeats a request byte for byte
/// (the same push to the same device) hands the previous request's content on, and the journal record keeps that
/// one reference instead of a dozen strings and arrays, each retained and released per copy.
public struct APNsRequest: Sendable {
    /// Everything of a request but its stream, immutable and shared.
    final class Content: Sendable {
        let method: String
        let path: String
        let authority: String?
        let scheme: String?
        let headers: [APNsHeader]
        let body: [UInt8]
        let bodyTruncated: Bool
        /// Derived from `path`.
        let deviceToken: String?
        /// Derived from `headers`.
        let fields: APNsHeaderFields
        /// The bytes this content holds as the journal's byte budget counts them: the body, and the headers as
        /// HTTP/2 counts them (name, value and 32 per header, RFC 9113 §6.5.2). Worked out once per content, which
        /// repeated requests share, so that a record's estimate is one load (also when it is dropped, long after).
        let storedBytes: Int
        /// The body's size as received when `body` keeps only a prefix of it (a journal record's cut payload);
        /// `nil` when `body` is whole.
        let receivedBodyBytes: Int?

        init(
            method: String, path: String, authority: String?, scheme: String?, headers: [APNsHeader], body: [UInt8],
            bodyTruncated: Bool, deviceToken: String?, fields: APNsHeaderFields, receivedBodyBytes: Int? = nil
        ) {
            self.method = method
            self.path = path
            self.authority = authority
            self.scheme = scheme
            self.headers = headers
            self.body = body
            self.bodyTruncated = bodyTruncated
            self.deviceToken = deviceToken
            self.fields = fields
            self.receivedBodyBytes = receivedBodyBytes
            var storedBytes = body.count
            for header in headers { storedBytes &+= header.name.utf8.count &+ header.value.utf8.count &+ 32 }
            self.storedBytes = storedBytes
        }

        /// The first value of a header, by its lower-case name.
        func header(_ name: String) -> String? {
            for header in headers where header.name == name { return header.value }
            return nil
        }

        /// This content with only the first `count` bytes of its body, for a journal record that keeps a prefix of
        /// a long payload (`JournalRecord.keptPayloadLimit`); `receivedBodyBytes` keeps the size as received.
        func keepingBodyPrefix(_ count: Int) -> Content {
            Content(
                method: method, path: path, authority: authority, scheme: scheme, headers: headers,
                body: Array(body.prefix(count)), bodyTruncated: bodyTruncated, deviceToken: deviceToken, fields: fields,
                receivedBodyBytes: receivedBodyBytes ?? body.count)
        }
    }

    let content: Content
    /// The HTTP/2 stream the request came on.
    public var streamID: Int32

    /// `:method`.
    public var method: String { content.method }
    /// `:path`.
    public var path: String { content.path }
    /// `:authority`, or the `host` header when a client (aioapns) sends that instead.
    public var authority: String? { content.authority }
    /// `:scheme`.
    public var scheme: String? { content.scheme }
    /// Regular (non-pseudo) headers in the order they arrived, duplicates kept.
    public var headers: [APNsHeader] { content.headers }
    /// The request body.
    public var body: [UInt8] { content.body }
    /// Whether the body was longer than the server keeps (64 KiB); it is then too large for APNs anyway.
    public var bodyTruncated: Bool { content.bodyTruncated }
    /// The device token in a `/3/device/<token>` path, if the path has that shape (possibly empty).
    public var deviceToken: String? { content.deviceToken }
    /// The APNs headers, found in one pass.
    public var fields: APNsHeaderFields { content.fields }

    public init(
        method: String, path: String, authority: String? = nil, scheme: String? = "https",
        headers: [APNsHeader] = [], body: [UInt8] = [], streamID: Int32 = 1
    ) {
        self.init(
            Content(
                method: method, path: path, authority: authority, scheme: scheme, headers: headers, body: body,
                bodyTruncated: false, deviceToken: Self.deviceToken(in: path), fields: APNsHeaderFields(headers)),
            streamID: streamID)
    }

    init(_ content: Content, streamID: Int32) {
        self.content = content
        self.streamID = streamID
    }

    /// The first value of a header, by its lower-case name.
    public func header(_ name: String) -> String? { content.header(name) }

    /// The device token in a `/3/device/<token>` path, or `nil` when the path has another shape.
    static func deviceToken(in path: String) -> String? {
        // Over the contiguous bytes: Character-wise slicing of the path was a tenth of the cost of a request, and a
        // walk over String.UTF8View's indices 2 % of a push's CPU on distinct tokens (bench/README.md).
        let prefix: StaticString = "/3/device/"
        let start = prefix.utf8CodeUnitCount
        return path.withUTF8Bytes { bytes in
            guard bytes.count >= start, memcmp(bytes.baseAddress!, prefix.utf8Start, start) == 0 else { return nil }
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }
}

/// The headers APNs reads, found in one pass over a request's headers, and the first header sent twice.
///
/// One reference to immutable storage: requests that repeat the previous one's headers share its fields, and a
/// copy of them retains one object, not eight strings (`RequestAssembler.complete` made one such copy per push).
public struct APNsHeaderFields: Sendable, Hashable {
    public var authorization: String? { storage.values.authorization }
    public var apnsID: String? { storage.values.apnsID }
    public var pushType: String? { storage.values.pushType }
    public var topic: String? { storage.values.topic }
    public var priority: String? { storage.values.priority }
    public var expiration: String? { storage.values.expiration }
    public var collapseID: String? { storage.values.collapseID }
    /// The name of the first header that appears more than once.
    public var duplicate: String? { storage.values.duplicate }

    private struct Values: Sendable, Hashable {
        var authorization, apnsID, pushType, topic, priority, expiration, collapseID, duplicate: String?
    }

    private final class Storage: Sendable {
        let values: Values

        init(_ values: Values) {
            self.values = values
        }
    }

    private let storage: Storage

    init(_ headers: [APNsHeader]) {
        var values = Values()
        for (index, header) in headers.enumerated() {
            let isNew: Bool
            switch header.name {
            case "authorization": isNew = Self.set(&values.authorization, header.value)
            case "apns-id": isNew = Self.set(&values.apnsID, header.value)
            case "apns-push-type": isNew = Self.set(&values.pushType, header.value)
            case "apns-topic": isNew = Self.set(&values.topic, header.value)
            case "apns-priority": isNew = Self.set(&values.priority, header.value)
            case "apns-expiration": isNew = Self.set(&values.expiration, header.value)
            case "apns-collapse-id": isNew = Self.set(&values.collapseID, header.value)
            default: isNew = !headers[..<index].contains { $0.name == header.name }
            }
            if !isNew, values.duplicate == nil { values.duplicate = header.name }
        }
        storage = Storage(values)
    }

    public static func == (lhs: APNsHeaderFields, rhs: APNsHeaderFields) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.values == rhs.storage.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.values)
    }

    /// Keeps the first value; returns whether this was the first.
    private static func set(_ field: inout String?, _ value: String) -> Bool {
        guard field == nil else { return false }
        field = value
        return true
    }
}
