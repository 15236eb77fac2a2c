import Foundation

extension JournalRecord: JSONMapped {
    /// The record as a JSON object: the form of journal files, the control API and the record stream.
    ///
    /// Members of a device push in this order, always present unless said: `sequence`, `kind` (`push`),
    /// `receivedAt`, `answeredAt`, `connection`, `remoteAddress`, `stream`, `method`, `path`, `authority`, `token`,
    /// `pushType`, `topic`, `headers`, `payload`, `payloadJSON`, `accepted`, `reason`, `rule`, `explanation`,
    /// `notes`; then `payloadTruncated` and `payloadBytes` only for a cut payload; then `auth`, `response` and
    /// `fault`; then `device` only for a push the simulated phone received (issue 12); then `replayOf` only for a
    /// replay (issue 22), whose `connection` and `stream` are `null`. A new member is one line here (and its line in
    /// `docs/control-api.md`): a stored property of the record reads into `\.record`.
    ///
    /// Read back, a device push (`kind` `push`, or no `kind` as before it was written) needs `sequence`,
    /// `receivedAt`, `connection` (a number, or `null` for none), `method`, `path`, `accepted` and `rule`; any other
    /// member missing or of another
    /// type reads as empty. The payload is the recorded text as UTF-8. A `fault` that names a scripted fault is read
    /// as `injectedFault`, any other as `note`. An object of another `kind` is kept as received and written back as
    /// it was (`rawJSON`, `keptKinds`).
    public static let jsonMapping = JSONMapping<JournalRecord, JSONDraft>(
        start: { JSONDraft() },
        [
            .member("sequence", \.sequence, \.record.sequence, .integer, required: true),
            .written("kind") { .string($0.kind.name) },
            .member("receivedAt", \.receivedAt, \.record.receivedAt, .timestamp, required: true),
            .member("answeredAt", \.answeredAt, \.record.answeredAt, .optional(.timestamp)),
            .member("connection", \.connectionNumber, \.record.connectionNumber, .numberOrNull, required: true),
            .member("remoteAddress", \.remoteAddress, \.record.remoteAddress, .string),
            .member("stream", \.streamNumber, \.record.streamNumber, .optional(.integer)),
            .member("method", \.method, \.method, .string, required: true),
            .member("path", \.path, \.path, .string, required: true),
            .member("authority", \.authority, \.authority, .optional(.string)),
            .member("token", \.deviceToken, \.token, .optional(.string)),
            .member("pushType", \.pushType, \.verdict.pushType, .optional(.string)),
            .member("topic", \.topic, \.verdict.topic, .optional(.string)),
            .member("headers", \.headers, \.headers, .compactArray(.header)),
            .member("payload", \.payloadText, \.payload, .string),
            .written("payloadJSON") { $0.payloadJSON ?? .null },
            .member("accepted", \.accepted, \.accepted, .bool, required: true),
            .member("reason", \.reason, \.reason, .optional(.string)),
            .member("rule", \.rule, \.verdict.rule, .string, required: true),
            .member("explanation", \.explanation, \.verdict.explanation, .string),
            .member("notes", \.notes, \.verdict.notes, .compactArray(.string)),
            .member("payloadTruncated", \.truncatedFlag, \.truncated, .omittedWhenNil(.bool)),
            .member("payloadBytes", \.truncatedBytes, \.receivedBodyBytes, .omittedWhenNil(.integer)),
            .member("auth", \.auth, \.verdict.auth, .optional(.object)),
            .member("response", \.response, \.record.response, .optional(.object)),
            .member("fault", \.fault, \.fault, .optional(.string)),
            .member("device", \.device, \.record.device, .omittedWhenNil(.object)),
            .member("replayOf", \.replayOf, \.record.replayOf, .omittedWhenNil(.integer)),
        ],
        finish: { $0.assembled }, kept: keptKinds)

    /// A record being read back from JSON: its own stored members (`record`), and the parts that make its request
    /// and its verdict, which are shared values built once every member is read.
    public struct JSONDraft: Sendable {
        fileprivate init() {}

        fileprivate var record = JournalRecord(
            sequence: 0, receivedAt: .distantPast, answeredAt: nil, connectionID: 0, remoteAddress: "", streamID: 0,
            request: APNsRequest.Content(
                method: "", path: "", authority: nil, scheme: nil, headers: [], body: [], bodyTruncated: false,
                deviceToken: nil, fields: APNsHeaderFields([])),
            verdict: Verdict.Shared(Verdict(outcome: .accepted, rule: "", explanation: "")), response: nil,
            injectedFault: nil)
        fileprivate var method = ""
        fileprivate var path = ""
        fileprivate var authority: String?
        fileprivate var token: String?
        fileprivate var headers: [APNsHeader] = []
        fileprivate var payload = ""
        fileprivate var truncated: Bool?
        fileprivate var receivedBodyBytes: Int?
        fileprivate var accepted = false
        fileprivate var reason: String?
        /// Every part of the verdict but its outcome, which `accepted`, `reason` and the answer's status make.
        fileprivate var verdict = Verdict(outcome: .accepted, rule: "", explanation: "")
        fileprivate var fault: String?

        /// The record these parts make.
        fileprivate var assembled: JournalRecord {
            var record = self.record
            record.request = APNsRequest.Content(
                method: method, path: path, authority: authority, scheme: nil, headers: headers,
                body: Array(payload.utf8), bodyTruncated: false, deviceToken: token, fields: APNsHeaderFields(headers),
                receivedBodyBytes: truncated == true ? receivedBodyBytes : nil)
            var verdict = self.verdict
            verdict.outcome = JournalRecord.outcome(accepted: accepted, reason: reason, status: record.response?.status)
            record.sharedVerdict = Verdict.Shared(verdict)
            record.injectedFault = fault.flatMap(RuleFault.init(rawValue:))
            record.note = record.injectedFault == nil ? fault : nil
            return record
        }
    }

    /// A record with every member empty: what reading one starts from.
    static var blank: JournalRecord { JSONDraft().record }

    /// `connection` as written: the connection's number, or `nil` (`null`) for a request that came on none.
    fileprivate var connectionNumber: UInt64? {
        get { connectionID == 0 ? nil : connectionID }
        set { connectionID = newValue ?? 0 }
    }

    /// `stream` as written: the stream's number, or `nil` (`null`) for a request that came on no connection.
    fileprivate var streamNumber: Int32? {
        get { connectionID == 0 ? nil : streamID }
        set { streamID = newValue ?? 0 }
    }

    /// `payloadTruncated` as written: `true` for a cut payload, else left out.
    private var truncatedFlag: Bool? { payloadTruncated ? true : nil }
    /// `payloadBytes` as written: the size received, for a cut payload only.
    private var truncatedBytes: Int? { payloadTruncated ? payloadBytes : nil }
}

extension JSONForm where T == UInt64? {
    /// A whole number, or `null` for none; anything else is not of this form (unlike `optional(.integer)`, which
    /// reads it as none).
    static var numberOrNull: JSONForm {
        JSONForm(
            write: { $0.map { .number(String($0)) } ?? .null },
            read: { json in
                if case .null = json { return .some(nil) }
                return JSONForm<UInt64>.integer(from: json).map { .some($0) }
            })
    }
}

extension JSONForm where T == APNsHeader {
    /// A header as a record writes it: `["name", "value"]`.
    static var header: JSONForm {
        JSONForm(
            write: { .array([.string($0.name), .string($0.value)]) },
            read: { json in
                guard let items = json.arrayValue, items.count == 2, let name = items[0].stringValue,
                    let value = items[1].stringValue
                else { return nil }
                return APNsHeader(name, value)
            })
    }
}

extension APNsResponse: JSONMapped {
    /// The answer as a record writes it: `status`, `apnsID`, `apnsUniqueID`, `body`; read back `nil` without a
    /// whole-number `status` (in `Int`'s range) and an `apnsID` text.
    public static let jsonMapping = JSONMapping<APNsResponse, APNsResponse>(
        APNsResponse(status: 0, apnsID: ""),
        [
            .member("status", \.status, .integer, required: true),
            .member("apnsID", \.apnsID, .string, required: true),
            .member("apnsUniqueID", \.apnsUniqueID, .optional(.string)),
            .member("body", \.body, .optional(.string)),
        ])
}

extension JSONValue {
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The number as a non-negative integer, if this is one written without a fraction or exponent.
    public var unsignedValue: UInt64? {
        if case .number(let text) = self { return UInt64(text) }
        return nil
    }
}
