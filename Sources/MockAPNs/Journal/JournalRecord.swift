import Foundation

/// One request as the journal keeps it: what arrived, what was decided and why, and what was answered.
public struct JournalRecord: Sendable {
    /// 1, 2, 3, … in the order requests were decided, never reused within a server run.
    public var sequence: UInt64
    public var receivedAt: Date
    /// When the answer was handed to HTTP/2; `nil` when a scripted fault sent none.
    public var answeredAt: Date?
    public var connectionID: UInt64
    public var remoteAddress: String
    public var streamID: Int32
    public var method: String
    public var path: String
    public var authority: String?
    /// The device token from the path, as sent.
    public var token: String?
    /// All regular headers in arrival order.
    public var headers: [APNsHeader]
    /// The payload bytes as sent (at most 64 KiB are kept).
    public var payload: [UInt8]
    /// The push type the request was taken as.
    public var pushType: String?
    /// `apns-topic` as sent.
    public var topic: String?
    /// Whether the push was accepted.
    public var accepted: Bool
    /// The rejection reason, if any.
    public var reason: String?
    /// The rule that decided (`scripted:<name>` for scripted answers).
    public var rule: String
    /// Why, in a sentence.
    public var explanation: String
    /// Oddities that were accepted.
    public var notes: [String]
    public var auth: AuthSummary?
    /// The answer; `nil` when a scripted fault sent none.
    public var response: APNsResponse?
    /// The scripted fault injected, if any.
    public var fault: String?

    /// The payload parsed as JSON, or `nil` when it is not JSON.
    public var payloadJSON: JSONValue? { try? JSONParser.parse(payload) }

    /// The payload as text (invalid UTF-8 repaired).
    public var payloadText: String { String(decoding: payload, as: UTF8.self) }

    /// The `apns-id` the request carried.
    public var requestAPNsID: String? { headers.first { $0.name == "apns-id" }?.value }

    /// The record as a JSON object: the form of journal files and the control API.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("sequence", .number(String(sequence))),
            ("receivedAt", .string(JournalRecord.timestampText(receivedAt))),
            ("answeredAt", answeredAt.map { .string(JournalRecord.timestampText($0)) } ?? .null),
            ("connection", .number(String(connectionID))),
            ("remoteAddress", .string(remoteAddress)),
            ("stream", .number(String(streamID))),
            ("method", .string(method)),
            ("path", .string(path)),
            ("authority", authority.map { .string($0) } ?? .null),
            ("token", token.map { .string($0) } ?? .null),
            ("pushType", pushType.map { .string($0) } ?? .null),
            ("topic", topic.map { .string($0) } ?? .null),
            ("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) })),
            ("payload", .string(payloadText)),
            ("payloadJSON", payloadJSON ?? .null),
            ("accepted", .bool(accepted)),
            ("reason", reason.map { .string($0) } ?? .null),
            ("rule", .string(rule)),
            ("explanation", .string(explanation)),
            ("notes", .array(notes.map { .string($0) })),
        ]
        if let auth {
            var authMembers: [(String, JSONValue)] = [
                ("kind", .string(auth.kind)),
                ("teamID", auth.teamID.map { .string($0) } ?? .null),
                ("keyID", auth.keyID.map { .string($0) } ?? .null),
                ("issuedAt", auth.issuedAt.map { .number(String($0)) } ?? .null),
                ("verified", .bool(auth.verified)),
            ]
            if let topics = auth.certificateTopics { authMembers.append(("certificateTopics", .array(topics.map { .string($0) }))) }
            members.append(("auth", .object(authMembers)))
        } else {
            members.append(("auth", .null))
        }
        if let response {
            members.append(
                (
                    "response",
                    .object([
                        ("status", .number(String(response.status))),
                        ("apnsID", .string(response.apnsID)),
                        ("apnsUniqueID", response.apnsUniqueID.map { .string($0) } ?? .null),
                        ("body", response.body.map { .string($0) } ?? .null),
                    ])
                ))
        } else {
            members.append(("response", .null))
        }
        members.append(("fault", fault.map { .string($0) } ?? .null))
        return .object(members)
    }

    /// ISO 8601 with milliseconds, UTC.
    static func timestampText(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
