extension RuleMatch {
    /// The match in words for messages: `to 5984de…a1b2c3 with topic com.example.app, aps.alert.title "Order
    /// ready", phone applied`; `any request` when it gives no field.
    var text: String {
        guard let device else { return requestText }
        return "\(requestText), \(device.text)"
    }

    /// The match in words without its `device` condition, for messages that name that one apart.
    var requestText: String {
        var with: [String] = []
        if let topic { with.append("topic \(topic)") }
        if let pushType { with.append("pushType \(pushType)") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { with.append("header \(name) \"\(value)\"") }
        for (path, value) in payload.sorted(by: { $0.key < $1.key }) { with.append("\(path) \(value.jsonText)") }
        for (subject, condition) in conditions.sorted(by: { $0.key.name < $1.key.name }) {
            with.append("\(subject.name) \(condition.scenarioJSON.jsonText)")
        }
        var words = token.map { "to \(JournalRecord.shortToken($0))" } ?? issuedToken.map { "to \($0.text)" } ?? ""
        if !with.isEmpty { words += (words.isEmpty ? "with " : " with ") + with.joined(separator: ", ") }
        if !terms.isEmpty { words += (words.isEmpty ? "matching " : " matching ") + searchText }
        return words.isEmpty ? "any request" : words
    }

    /// The record terms as search text (`status:4xx -reason:BadDeviceToken`), which `requests --query` takes.
    var searchText: String { terms.map(\.text).joined(separator: " ") }

    /// What `field` asks for, as text.
    func expectedText(_ field: RuleMatchField) -> String {
        switch field {
        case .token: token ?? issuedToken?.text ?? "any"
        case .topic: topic ?? "any"
        case .pushType: pushType ?? "any"
        case .header(let name): headers[name].map { "\"\($0)\"" } ?? "any"
        case .payload(let path): payload[path]?.jsonText ?? "any"
        case .condition(let subject): conditions[subject]?.scenarioJSON.jsonText ?? "any"
        case .device: device?.expectedText ?? "any"
        case .term(let term): term.expectedText
        }
    }

    /// What `record` has for `field`, as text: `absent` when it has nothing there; the device part names its rules
    /// when `device`, the condition, asks about them.
    static func actualText(
        _ field: RuleMatchField, _ record: JournalRecord, payload: JSONValue??, device: DeviceCondition? = nil
    ) -> String {
        if case .term(let term) = field { return term.actualText(record) }
        guard let subject = field.subject else {
            return DeviceCondition.actualText(record.device, namingRules: device?.asksRules ?? false)
        }
        // A literal pushType compares `alert` when the header is absent; say so.
        if field == .pushType, record.request.fields.pushType == nil { return "absent (taken as alert)" }
        return actualText(subject, record.request, payload: payload)
    }

    /// What `request` has for `subject`, as text.
    static func actualText(_ subject: MatchSubject, _ request: APNsRequest.Content, payload: JSONValue??) -> String {
        switch subject {
        case .token: return request.deviceToken ?? "absent"
        case .topic: return request.fields.topic ?? "absent"
        case .pushType: return request.fields.pushType ?? "absent"
        case .header(let name): return request.header(name).map { "\"\($0)\"" } ?? "absent"
        case .payload(let path):
            guard case .some(.some(let parsed)) = payload else { return "absent (the payload is not JSON)" }
            return parsed.value(atPath: path)?.jsonText ?? "absent"
        }
    }
}

extension MatchSubject {
    /// The subject as a message names it: `token`, `topic`, `pushType`, `header apns-priority`, `aps.badge`.
    var name: String {
        switch self {
        case .token: "token"
        case .topic: "topic"
        case .pushType: "pushType"
        case .header(let name): "header \(name)"
        case .payload(let path): path
        }
    }
}

extension RuleMatchField {
    /// The request value the field tests; `nil` for the device part, which is not the request's.
    var subject: MatchSubject? {
        switch self {
        case .token: .token
        case .topic: .topic
        case .pushType: .pushType
        case .header(let name): .header(name)
        case .payload(let path): .payload(path)
        case .condition(let subject): subject
        case .device, .term: nil
        }
    }

    /// The field as a message names it.
    var name: String {
        if case .term(let term) = self { return term.fieldName }
        return subject?.name ?? "device outcome"
    }
}
