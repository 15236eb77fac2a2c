import Foundation

extension JournalRecord {
    /// Reads a record back from its JSON form (`json`), as the control API and journal files carry it.
    ///
    /// Returns `nil` when a required member (sequence, times, connection, method, path, accepted, rule) is
    /// missing or of the wrong type. The payload is the recorded text as UTF-8.
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
        let token = json["token"]?.stringValue
        let fault = json["fault"]?.stringValue
        let response = json["response"].flatMap(Self.response(from:))
        self.init(
            sequence: sequence, receivedAt: receivedAt,
            answeredAt: json["answeredAt"]?.stringValue.flatMap(Timestamp.date(fromText:)),
            connectionID: connectionID, remoteAddress: json["remoteAddress"]?.stringValue ?? "",
            streamID: Int32(truncatingIfNeeded: json["stream"]?.unsignedValue ?? 0),
            request: APNsRequest.Content(
                method: method, path: path, authority: json["authority"]?.stringValue, scheme: nil, headers: headers,
                body: Array((json["payload"]?.stringValue ?? "").utf8), bodyTruncated: false, deviceToken: token,
                fields: APNsHeaderFields(headers), receivedBodyBytes: receivedBodyBytes),
            verdict: Verdict.Shared(
                Verdict(
                    outcome: Self.outcome(
                        accepted: accepted, reason: json["reason"]?.stringValue, status: response?.status),
                    rule: rule, explanation: json["explanation"]?.stringValue ?? "",
                    notes: (json["notes"]?.arrayValue ?? []).compactMap(\.stringValue),
                    auth: json["auth"].flatMap(Self.auth(from:)), pushType: json["pushType"]?.stringValue,
                    topic: json["topic"]?.stringValue)),
            response: response,
            injectedFault: fault.flatMap(RuleFault.init(rawValue:)))
        if injectedFault == nil { note = fault }
    }

    private static func auth(from json: JSONValue) -> AuthSummary? {
        guard let kind = json["kind"]?.stringValue, case .bool(let verified)? = json["verified"] else { return nil }
        return AuthSummary(
            kind: kind, teamID: json["teamID"]?.stringValue, keyID: json["keyID"]?.stringValue,
            issuedAt: json["issuedAt"]?.doubleValue.map { Int64($0) }, verified: verified,
            certificateTopics: json["certificateTopics"]?.arrayValue?.compactMap(\.stringValue))
    }

    private static func response(from json: JSONValue) -> APNsResponse? {
        guard let status = json["status"]?.unsignedValue, let apnsID = json["apnsID"]?.stringValue else { return nil }
        return APNsResponse(
            status: Int(status), apnsID: apnsID, apnsUniqueID: json["apnsUniqueID"]?.stringValue,
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
