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
    ///
    /// Written by hand: Foundation's ISO 8601 format style cost several microseconds per record, which the journal
    /// file and every control-API answer pay for each record.
    static func timestampText(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let fraction = Int(millis - seconds * 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        seconds -= days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        var text = ""
        text.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            var digitsText = String(value)
            if digitsText.count < digits { digitsText = String(repeating: "0", count: digits - digitsText.count) + digitsText }
            text += digitsText
        }
        append(year, digits: 4)
        text += "-"
        append(month, digits: 2)
        text += "-"
        append(day, digits: 2)
        text += "T"
        append(seconds / 3600, digits: 2)
        text += ":"
        append(seconds / 60 % 60, digits: 2)
        text += ":"
        append(seconds % 60, digits: 2)
        text += "."
        append(Int64(fraction), digits: 3)
        text += "Z"
        return text
    }
}
