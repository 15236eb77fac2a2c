import Foundation

extension JournalRecord {
    /// The record as a JSON object: the form of journal files and the control API.
    ///
    /// Members in this order, always present: `sequence`, `receivedAt`, `answeredAt`, `connection`,
    /// `remoteAddress`, `stream`, `method`, `path`, `authority`, `token`, `pushType`, `topic`, `headers`, `payload`,
    /// `payloadJSON`, `accepted`, `reason`, `rule`, `explanation`, `notes`; then `payloadTruncated` and
    /// `payloadBytes` only for a cut payload; then `auth`, `response` and `fault`; then `device` only for a push
    /// the simulated phone received (issue 12).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("sequence", .number(String(sequence))),
            ("receivedAt", .string(Timestamp.text(receivedAt))),
            ("answeredAt", answeredAt.map { .string(Timestamp.text($0)) } ?? .null),
            ("connection", .number(String(connectionID))),
            ("remoteAddress", .string(remoteAddress)),
            ("stream", .number(String(streamID))),
            ("method", .string(method)),
            ("path", .string(path)),
            ("authority", authority.map { .string($0) } ?? .null),
            ("token", deviceToken.map { .string($0) } ?? .null),
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
        if payloadTruncated {
            members.append(("payloadTruncated", .bool(true)))
            members.append(("payloadBytes", .number(String(payloadBytes))))
        }
        members.append(("auth", auth?.json ?? .null))
        members.append(("response", response?.json ?? .null))
        members.append(("fault", fault.map { .string($0) } ?? .null))
        if let device { members.append(("device", device.json)) }
        return .object(members)
    }

    /// Reads a record back from its JSON form (`json`), as the control API and journal files carry it.
    ///
    /// Returns `nil` when a required member (sequence, times, connection, method, path, accepted, rule) is
    /// missing or of the wrong type. The payload is the recorded text as UTF-8. A `fault` that names a scripted
    /// fault is read as `injectedFault`, any other as `note`.
    public init?(json: JSONValue) {
        guard let sequence = json["sequence"]?.unsignedValue,
            let receivedText = json["receivedAt"]?.stringValue, let receivedAt = Timestamp.date(fromText: receivedText),
            let connectionID = json["connection"]?.unsignedValue, let method = json["method"]?.stringValue,
            let path = json["path"]?.stringValue, case .bool(let accepted)? = json["accepted"],
            let rule = json["rule"]?.stringValue
        else { return nil }
        let headers: [APNsHeader] = (json["headers"]?.arrayValue ?? []).compactMap { pair in
            guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue,
                let value = items[1].stringValue
            else { return nil }
            return APNsHeader(name, value)
        }
        var receivedBodyBytes: Int?
        if json["payloadTruncated"] == .bool(true), let received = json["payloadBytes"]?.unsignedValue {
            receivedBodyBytes = Int(clamping: received)
        }
        let fault = json["fault"]?.stringValue
        let response = json["response"].flatMap(APNsResponse.init(json:))
        let verdict = Verdict(
            outcome: Self.outcome(accepted: accepted, reason: json["reason"]?.stringValue, status: response?.status),
            rule: rule, explanation: json["explanation"]?.stringValue ?? "",
            notes: (json["notes"]?.arrayValue ?? []).compactMap(\.stringValue),
            auth: json["auth"].flatMap(AuthSummary.init(json:)), pushType: json["pushType"]?.stringValue,
            topic: json["topic"]?.stringValue)
        self.init(
            sequence: sequence, receivedAt: receivedAt,
            answeredAt: json["answeredAt"]?.stringValue.flatMap(Timestamp.date(fromText:)),
            connectionID: connectionID, remoteAddress: json["remoteAddress"]?.stringValue ?? "",
            streamID: Int32(truncatingIfNeeded: json["stream"]?.unsignedValue ?? 0),
            request: APNsRequest.Content(
                method: method, path: path, authority: json["authority"]?.stringValue, scheme: nil, headers: headers,
                body: Array((json["payload"]?.stringValue ?? "").utf8), bodyTruncated: false,
                deviceToken: json["token"]?.stringValue, fields: APNsHeaderFields(headers),
                receivedBodyBytes: receivedBodyBytes),
            verdict: Verdict.Shared(verdict), response: response,
            injectedFault: fault.flatMap(RuleFault.init(rawValue:)))
        if injectedFault == nil { note = fault }
        device = json["device"].flatMap(DeviceOutcome.init(json:))
    }
}

extension AuthSummary {
    /// The summary as a record writes it: `kind`, `teamID`, `keyID`, `issuedAt`, `verified`, and
    /// `certificateTopics` when there are any.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("kind", .string(kind)),
            ("teamID", teamID.map { .string($0) } ?? .null),
            ("keyID", keyID.map { .string($0) } ?? .null),
            ("issuedAt", issuedAt.map { .number(String($0)) } ?? .null),
            ("verified", .bool(verified)),
        ]
        if let certificateTopics {
            members.append(("certificateTopics", .array(certificateTopics.map { .string($0) })))
        }
        return .object(members)
    }

    /// Reads `json` back; `nil` without a `kind` text and a `verified` boolean. An `issuedAt` out of `Int64`'s
    /// range reads as none.
    public init?(json: JSONValue) {
        guard let kind = json["kind"]?.stringValue, case .bool(let verified)? = json["verified"] else { return nil }
        self.init(
            kind: kind, teamID: json["teamID"]?.stringValue, keyID: json["keyID"]?.stringValue,
            issuedAt: json["issuedAt"]?.doubleValue.flatMap { Int64(exactly: $0.rounded(.towardZero)) },
            verified: verified,
            certificateTopics: json["certificateTopics"]?.arrayValue?.compactMap(\.stringValue))
    }
}

extension APNsResponse {
    /// The answer as a record writes it: `status`, `apnsID`, `apnsUniqueID`, `body`.
    public var json: JSONValue {
        .object([
            ("status", .number(String(status))),
            ("apnsID", .string(apnsID)),
            ("apnsUniqueID", apnsUniqueID.map { .string($0) } ?? .null),
            ("body", body.map { .string($0) } ?? .null),
        ])
    }

    /// Reads `json` back; `nil` without a whole-number `status` (in `Int`'s range) and an `apnsID` text.
    public init?(json: JSONValue) {
        guard let number = json["status"]?.unsignedValue, let status = Int(exactly: number),
            let apnsID = json["apnsID"]?.stringValue
        else { return nil }
        self.init(
            status: status, apnsID: apnsID, apnsUniqueID: json["apnsUniqueID"]?.stringValue,
            body: json["body"]?.stringValue)
    }
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
