/// The answer to one request, in APNs's framing: headers, then (for errors) one JSON body.
public struct APNsResponse: Sendable, Hashable, Codable {
    /// `:status`.
    public var status: Int
    /// The `apns-id` answered: the request's byte for byte, or a generated one.
    public var apnsID: String
    /// `apns-unique-id` (sandbox only): an id for Apple's delivery log.
    public var apnsUniqueID: String?
    /// The JSON body of an error (`{"reason":...}` and, on 410, `"timestamp"`); `nil` on success.
    public var body: String?

    public init(status: Int, apnsID: String, apnsUniqueID: String? = nil, body: String? = nil) {
        self.status = status
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.body = body
    }

    /// A success: `:status 200` and the ids.
    public static func success(apnsID: String, uniqueID: String?) -> APNsResponse {
        APNsResponse(status: 200, apnsID: apnsID, apnsUniqueID: uniqueID)
    }

    /// An error answer for `reason`, with the `timestamp` field (milliseconds) APNs adds to 410s.
    public static func error(_ reason: APNsReason, apnsID: String, timestampMillis: Int64? = nil) -> APNsResponse {
        var body = "{\"reason\":\"\(JSONText.escape(reason.name))\""
        if let timestampMillis { body += ",\"timestamp\":\(timestampMillis)" }
        body += "}"
        return APNsResponse(status: reason.status, apnsID: apnsID, body: body)
    }
}
