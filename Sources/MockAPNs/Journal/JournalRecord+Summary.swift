extension JournalRecord {
    /// The token shortened to its first and last six digits (`0123ab…89cdef`), for tables and messages.
    public var shortToken: String { deviceToken.map(Self.shortToken) ?? "-" }

    /// `token` shortened to its first and last six digits when it is longer than fourteen.
    static func shortToken(_ token: String) -> String {
        guard token.count > 14 else { return token }
        return "\(token.prefix(6))…\(token.suffix(6))"
    }

    /// `200`, or `410 Unregistered`, or `no answer` when a fault sent none.
    public var outcomeText: String {
        guard let status = answeredStatus else { return fault.map { "no answer (\($0))" } ?? "no answer" }
        // A broadcast or channel record keeps its answer as members (`status`, `reason`).
        let reason = otherKindMember("reason")?.stringValue ?? self.reason
        return reason.map { "\(status) \($0)" } ?? String(status)
    }

    /// The APNs answer and, for a push the simulated phone received, what it did: `200, phone applied`.
    public var resultText: String {
        device.map { "\(outcomeText), phone \($0.kind.rawValue)" } ?? outcomeText
    }

    /// What the push shows: the alert's title and body, a Live Activity's event and content-state, or a hint.
    public var contentText: String {
        guard let json = payloadJSON else { return payload.isEmpty ? "(empty payload)" : "(payload is not JSON)" }
        guard let aps = json["aps"] else { return "(no aps)" }
        if let event = aps["event"]?.stringValue {
            var text = "event \(event)"
            if let state = aps["content-state"] { text += " \(state.jsonText)" }
            return text
        }
        switch aps["alert"] {
        case .string(let text)?:
            return "\"\(text)\""
        case .object?:
            let alert = aps["alert"]
            let parts = ["title", "subtitle", "body"].compactMap { key in alert?[key]?.stringValue.map { "\"\($0)\"" } }
            if !parts.isEmpty { return parts.joined(separator: " / ") }
            if let key = alert?["loc-key"]?.stringValue ?? alert?["title-loc-key"]?.stringValue {
                return "loc-key \(key)"
            }
            return "(alert)"
        default:
            if aps["content-available"] != nil { return "(content-available)" }
            return "(no alert)"
        }
    }

    /// `#3 alert com.example.app → 0123ab…89cdef: 200, phone shown "Hello" / "World"`: one record on one line; a
    /// push the simulated phone received says what it did after the answer, and why when that is not what the
    /// provider meant (`200, phone dropped (why)`).
    /// A record of another kind reads `#3 broadcast: channel: "c1", …` (its kind and members).
    public var summaryLine: String {
        if otherKind != nil { return "#\(sequence) \(kind): \(otherKindText)" }
        let why = device.flatMap { $0.kind.isSuccess ? nil : $0.reason }.map { " (\($0))" } ?? ""
        return "#\(sequence) \(pushType ?? "-") \(topic ?? "-") → \(shortToken): \(resultText)\(why) \(contentText)"
    }
}
