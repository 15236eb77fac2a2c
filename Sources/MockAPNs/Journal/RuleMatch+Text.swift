extension RuleMatch {
    /// The match in words for messages: `to 5984de…a1b2c3 with topic com.example.app, aps.alert.title "Order
    /// ready"`; `any request` when it gives no field.
    var text: String {
        var with: [String] = []
        if let topic { with.append("topic \(topic)") }
        if let pushType { with.append("pushType \(pushType)") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { with.append("header \(name) \"\(value)\"") }
        for (path, value) in payload.sorted(by: { $0.key < $1.key }) { with.append("\(path) \(value.jsonText)") }
        for (subject, condition) in conditions.sorted(by: { $0.key.name < $1.key.name }) {
            with.append("\(subject.name) \(condition.scenarioJSON.jsonText)")
        }
        var words = token.map { "to \(JournalRecord.shortToken($0))" } ?? ""
        if !with.isEmpty { words += (words.isEmpty ? "with " : " with ") + with.joined(separator: ", ") }
        return words.isEmpty ? "any request" : words
    }

    /// What `field` asks for, as text.
    func expectedText(_ field: RuleMatchField) -> String {
        switch field {
        case .token: token ?? "any"
        case .topic: topic ?? "any"
        case .pushType: pushType ?? "any"
        case .header(let name): headers[name].map { "\"\($0)\"" } ?? "any"
        case .payload(let path): payload[path]?.jsonText ?? "any"
        case .condition(let subject): conditions[subject]?.scenarioJSON.jsonText ?? "any"
        }
    }

    /// What `request` has for `field`, as text: `absent` when it has nothing there.
    static func actualText(
        _ field: RuleMatchField, _ request: APNsRequest.Content, payload: JSONValue??
    ) -> String {
        let subject: MatchSubject
        switch field {
        case .token: subject = .token
        case .topic: subject = .topic
        case .pushType: return request.fields.pushType ?? "absent (taken as alert)"
        case .header(let name): subject = .header(name)
        case .payload(let path): subject = .payload(path)
        case .condition(let condition): subject = condition
        }
        return actualText(subject, request, payload: payload)
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
    /// The field as a message names it.
    var name: String {
        switch self {
        case .token: "token"
        case .topic: "topic"
        case .pushType: "pushType"
        case .header(let name): "header \(name)"
        case .payload(let path): path
        case .condition(let subject): subject.name
        }
    }
}
