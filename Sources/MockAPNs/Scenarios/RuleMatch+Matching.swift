/// One field a `match` tests: a near miss names the ones a request failed.
public enum RuleMatchField: Sendable, Hashable {
    /// The literal `token`.
    case token
    /// The literal `topic`.
    case topic
    /// The literal `pushType`.
    case pushType
    /// A literal header value, by lower-case name.
    case header(String)
    /// A literal payload value, by dotted path.
    case payload(String)
    /// A value operator on a subject.
    case condition(MatchSubject)
    /// The `device` condition: what the simulated phone did (expectations only).
    case device
    /// A test on the record (`terms`).
    case term(MatchTerm)
}

extension RuleMatch {
    /// Whether `request` matches every field given. The matcher of scripted rules and of `expect:`.
    ///
    /// A request is tested here before the phone sees it: it has no device part, so a `device` condition fails.
    ///
    /// - Parameter payload: the parsed body, shared by the matches tested against one request: `nil` until one of
    ///   them needs it, then `.some(nil)` when the body is not JSON.
    func matches(_ request: APNsRequest.Content, payload: inout JSONValue??) -> Bool {
        test(request, record: nil, payload: &payload) { _ in false }
    }

    /// Whether the recorded request matches every field given, its device part included.
    func matches(_ record: JournalRecord, payload: inout JSONValue??) -> Bool {
        test(record.request, record: record, payload: &payload) { _ in false }
    }

    /// Whether the recorded request matches every field given, its device part and record terms included.
    public func matches(_ record: JournalRecord) -> Bool {
        var payload: JSONValue??
        return matches(record, payload: &payload)
    }

    /// The fields `record` fails, in the order the matcher tests them; empty when it matches.
    func mismatches(_ record: JournalRecord, payload: inout JSONValue??) -> [RuleMatchField] {
        mismatches(record.request, record: record, payload: &payload)
    }

    /// The fields `request` fails, in the order the matcher tests them; undecided, it fails a `device` condition
    /// and every term (`record`, once decided, has what they test).
    func mismatches(
        _ request: APNsRequest.Content, record: JournalRecord? = nil, payload: inout JSONValue??
    ) -> [RuleMatchField] {
        var failed: [RuleMatchField] = []
        _ = test(request, record: record, payload: &payload) { field in
            failed.append(field)
            return true
        }
        return failed
    }

    /// Tests `request` field by field, telling `failure` each field it fails; `failure` answers whether to go on.
    /// Returns whether every field passed. The only place the meaning of a match is written down (each record
    /// term's in `MatchTerm`).
    ///
    /// - Parameter record: the record of `request` once it was decided; `nil` before (a scripted rule's match),
    ///   which fails a `device` condition and every term.
    @inline(__always)
    private func test(
        _ request: APNsRequest.Content, record: JournalRecord?, payload: inout JSONValue??,
        failure: (RuleMatchField) -> Bool
    ) -> Bool {
        var passed = true
        func fail(_ field: RuleMatchField) -> Bool {
            passed = false
            return failure(field)
        }
        if let token {
            let same = request.deviceToken.map { $0.lowercased() == token.lowercased() } ?? false
            if !same, !fail(.token) { return false }
        }
        if let issuedToken, !issuedToken.passes(request.deviceToken), !fail(.token) { return false }
        if let topic, request.fields.topic != topic, !fail(.topic) { return false }
        if let pushType, (request.fields.pushType ?? "alert") != pushType, !fail(.pushType) { return false }
        for (name, value) in headers where request.header(name) != value {
            if !fail(.header(name)) { return false }
        }
        if needsPayload, payload == nil { payload = .some(try? JSONParser.parse(request.body)) }
        for (path, expected) in self.payload {
            let actual = (payload ?? nil)?.value(atPath: path)
            let same = actual.map { $0 == expected || $0.scalarText == expected.scalarText } ?? false
            if !same, !fail(.payload(path)) { return false }
        }
        for (subject, condition) in conditions where !condition.passes(subject, request, payload ?? nil) {
            if !fail(.condition(subject)) { return false }
        }
        if let condition = self.device, !condition.passes(record?.device, later: record?.laterOutcomes ?? []),
            !fail(.device)
        {
            return false
        }
        for term in terms where !(record.map(term.passes) ?? false) {
            if !fail(.term(term)) { return false }
        }
        return passed
    }
}

extension MatchCondition {
    /// Whether `request` passes the condition on `subject`; `payload` is the parsed body when any subject needs it.
    func passes(_ subject: MatchSubject, _ request: APNsRequest.Content, _ payload: JSONValue?) -> Bool {
        switch subject {
        case .token: return matches(text: request.deviceToken, caseInsensitive: true)
        case .topic: return matches(text: request.fields.topic)
        case .pushType:
            // `exists` tells whether the header was sent; the other operators see `alert` when it was not.
            if case .exists = self { return matches(text: request.fields.pushType) }
            return matches(text: request.fields.pushType ?? "alert")
        case .header(let name): return matches(text: request.header(name))
        case .payload(let path):
            guard let payload else { return false }
            return matches(payload.value(atPath: path))
        }
    }
}
