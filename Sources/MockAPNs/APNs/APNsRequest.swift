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
/// It carries no interpretation: the validator decides what it means.
public struct APNsRequest: Sendable {
    /// `:method`.
    public var method: String
    /// `:path`.
    public var path: String
    /// `:authority`, or the `host` header when a client (aioapns) sends that instead.
    public var authority: String?
    /// `:scheme`.
    public var scheme: String?
    /// Regular (non-pseudo) headers in the order they arrived, duplicates kept.
    public var headers: [APNsHeader]
    /// The request body.
    public var body: [UInt8]
    /// The HTTP/2 stream the request came on.
    public var streamID: Int32
    /// Whether the body was longer than the server keeps (64 KiB); it is then too large for APNs anyway.
    public var bodyTruncated = false

    public init(
        method: String, path: String, authority: String? = nil, scheme: String? = "https",
        headers: [APNsHeader] = [], body: [UInt8] = [], streamID: Int32 = 1
    ) {
        self.method = method
        self.path = path
        self.authority = authority
        self.scheme = scheme
        self.headers = headers
        self.body = body
        self.streamID = streamID
    }

    /// The first value of a header, by its lower-case name.
    public func header(_ name: String) -> String? {
        for header in headers where header.name == name { return header.value }
        return nil
    }

    /// The device token in a `/3/device/<token>` path, if the path has that shape (possibly empty).
    public var deviceToken: String? {
        // Byte-wise: this runs for every request, and Character-wise slicing of the path was a tenth of its cost.
        let prefix: StaticString = "/3/device/"
        let utf8 = path.utf8
        guard utf8.count >= prefix.utf8CodeUnitCount else { return nil }
        var index = utf8.startIndex
        for i in 0..<prefix.utf8CodeUnitCount {
            guard utf8[index] == prefix.utf8Start[i] else { return nil }
            index = utf8.index(after: index)
        }
        let end = utf8[index...].firstIndex(of: UInt8(ascii: "?")) ?? utf8.endIndex
        return String(path[index..<end])
    }
}
