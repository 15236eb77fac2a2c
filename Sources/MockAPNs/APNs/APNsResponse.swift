/// The answer to one request, in APNs's framing: headers, then (for errors) one JSON body.
///
/// Made on every push: its optional properties are spelled `Optional<…>`, never `T?`, whose implicit `nil` made
/// Swift build the value aside and copy it out (`HotPathOptionalsTests` says why).
public struct APNsResponse: Sendable, Hashable {
    /// An id as answered: generated here (kept as its 16 bytes until text is asked for), or the request's own.
    enum ID: Sendable, Hashable {
        case generated(GeneratedUUID, uppercase: Bool)
        case text(String)

        var text: String {
            switch self {
            case .generated(let uuid, let uppercase): uuid.text(uppercase: uppercase)
            case .text(let text): text
            }
        }
    }

    /// `:status`.
    public var status: Int
    var id: ID
    var uniqueID: Optional<ID>
    /// The JSON body of an error (`{"reason":...}` and, on 410, `"timestamp"`); `nil` on success.
    public var body: Optional<String>
    /// The headers of a broadcast or channel management answer (`apns-request-id` instead of `apns-id`,
    /// `apns-channel-id`); `nil`, one reference, for every device push.
    var broadcast: Optional<BroadcastAnswerHeaders> = nil

    /// The `apns-id` answered: the request's byte for byte, or a generated one.
    public var apnsID: String {
        get { id.text }
        set { id = .text(newValue) }
    }
    /// `apns-unique-id` (sandbox only): an id for Apple's delivery log.
    public var apnsUniqueID: String? {
        get { uniqueID?.text }
        set { uniqueID = newValue.map(ID.text) }
    }

    public init(status: Int, apnsID: String, apnsUniqueID: String? = nil, body: String? = nil) {
        self.init(status: status, id: .text(apnsID), uniqueID: apnsUniqueID.map(ID.text), body: body)
    }

    init(status: Int, id: ID, uniqueID: ID? = nil, body: String? = nil) {
        self.status = status
        self.id = id
        self.uniqueID = uniqueID
        self.body = body
    }

    /// Equal when they answer the same: status, ids as text, body.
    public static func == (lhs: APNsResponse, rhs: APNsResponse) -> Bool {
        lhs.status == rhs.status && lhs.apnsID == rhs.apnsID && lhs.apnsUniqueID == rhs.apnsUniqueID
            && lhs.body == rhs.body
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(apnsID)
        hasher.combine(apnsUniqueID)
        hasher.combine(body)
    }

    /// A success: `:status 200` and the ids.
    public static func success(apnsID: String, apnsUniqueID: String?) -> APNsResponse {
        APNsResponse(status: 200, apnsID: apnsID, apnsUniqueID: apnsUniqueID)
    }

    static func success(id: ID, uniqueID: ID?) -> APNsResponse {
        APNsResponse(status: 200, id: id, uniqueID: uniqueID)
    }

    /// An error answer for `reason`, with the `timestamp` field (milliseconds) APNs adds to 410s.
    public static func error(_ reason: APNsReason, apnsID: String, timestampMillis: Int64? = nil) -> APNsResponse {
        error(reason, id: .text(apnsID), timestampMillis: timestampMillis)
    }

    static func error(_ reason: APNsReason, id: ID, timestampMillis: Int64? = nil) -> APNsResponse {
        var body = "{\"reason\":\"\(JSONText.escape(reason.name))\""
        if let timestampMillis { body += ",\"timestamp\":\(timestampMillis)" }
        body += "}"
        return APNsResponse(status: reason.status, id: id, body: body)
    }
}

extension APNsResponse: Codable {
    private enum CodingKeys: String, CodingKey {
        case status, apnsID, apnsUniqueID, body
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: try container.decode(Int.self, forKey: .status),
            apnsID: try container.decode(String.self, forKey: .apnsID),
            apnsUniqueID: try container.decodeIfPresent(String.self, forKey: .apnsUniqueID),
            body: try container.decodeIfPresent(String.self, forKey: .body))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(apnsID, forKey: .apnsID)
        try container.encodeIfPresent(apnsUniqueID, forKey: .apnsUniqueID)
        try container.encodeIfPresent(body, forKey: .body)
    }
}
