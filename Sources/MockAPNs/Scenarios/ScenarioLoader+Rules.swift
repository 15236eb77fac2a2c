import Foundation
import Yams

extension ScenarioLoader.Reader {
    /// The `rules` list, in file order.
    func rules(_ field: Field) throws(ScenarioError) -> [ScriptedRule] {
        var rules = [ScriptedRule]()
        var firstLine = [String: Int]()
        for (index, element) in try field.list().enumerated() {
            let fields = try element.mapping(known: [
                "name", "match", "nth", "times", "respond", "fault", "delay", "phone",
            ])
            let name = try uniqueName(
                fields, at: element, default: "rule \(index + 1)", what: "rule", firstLine: &firstLine)
            var rule = ScriptedRule(name: name, action: try action(fields, at: element))
            if let match = fields["match"] {
                rule.match = try self.match(match, allowsDevice: false)
            }
            if let nth = fields["nth"] {
                rule.nth = try nth.integer(in: 1...Int.max)
            }
            if let times = fields["times"] {
                rule.times = try times.integer(in: 1...Int.max)
            }
            if let phone = fields["phone"] {
                rule.phone = try phone.bool()
            }
            rules.append(rule)
        }
        return rules
    }

    /// The action from exactly one of `respond` and `fault`, with the rule's `delay` if any.
    func action(_ fields: Fields, at rule: Field) throws(ScenarioError) -> RuleAction {
        let ruleDelay = try fields["delay"].map { (field: Field) throws(ScenarioError) in try duration(field) }
        switch (fields["respond"], fields["fault"]) {
        case (nil, nil):
            throw rule.error(
                "a rule needs what to do: give respond (a status and reason) or fault (\(Self.faultNames))"
            )
        case (.some, .some(let fault)):
            throw fault.error("give respond or fault, not both")
        case (.some(let respond), nil):
            return try self.respond(respond, ruleDelay: ruleDelay, ruleDelayField: fields["delay"])
        case (nil, .some(let fault)):
            let text = try fault.string()
            guard let kind = RuleFault(rawValue: text) else {
                throw fault.error("must be one of: \(Self.faultNames); got \(fault.shortDescription)")
            }
            return .fault(kind, delay: ruleDelay)
        }
    }

    /// The known reason `name` is a typo of: with an explicit status only one within two edits (`Invalid` or
    /// `BadThing` is then a custom reason), without one also a known name it starts (the name is refused anyway).
    static func reasonTypo(_ name: String, hasStatus: Bool) -> String? {
        let known = APNsReason.deviceAPI.map(\.name)
        if hasStatus { return NameSuggestion.closestByEditDistance(to: name, among: known) }
        return NameSuggestion.closest(to: name, among: known)
    }

    /// The fault names, for messages.
    static let faultNames = RuleFault.allCases.map(\.rawValue).joined(separator: ", ")

    /// The `respond` mapping: status and reason (either may imply the other), 410 timestamp, delay.
    func respond(_ field: Field, ruleDelay: Duration?, ruleDelayField: Field?) throws(ScenarioError) -> RuleAction {
        let fields = try field.mapping(known: ["status", "reason", "timestamp", "delay"])
        let statusField = fields["status"]
        var status = try statusField?.integer(in: 200...599)
        var reason: String?
        if let reasonField = fields["reason"] {
            let name = try reasonField.string()
            guard !name.isEmpty else { throw reasonField.error("expected a reason name such as Unregistered") }
            if let known = APNsReason.named(name) {
                status = status ?? known.status
            } else if let guess = Self.reasonTypo(name, hasStatus: status != nil) {
                // A near miss is a typo, not a reason Apple added since: refuse it even with a status.
                throw reasonField.error(
                    "'\(name)' is not an APNs reason (did you mean '\(guess)'?); reason names are case-sensitive")
            } else if status == nil {
                throw reasonField.error(
                    "'\(name)' is not an APNs reason, so give its status too (status: 4xx or 5xx); known reasons: "
                        + APNsReason.deviceAPI.map(\.name).joined(separator: ", ")
                )
            }
            reason = name
        }
        guard let status else {
            throw field.error("give a status (200 for success) or a reason (Unregistered, TooManyRequests, ...)")
        }
        if status == 200, let reasonField = fields["reason"] {
            throw reasonField.error("a 200 answer is a success and carries no reason; remove reason or change status")
        }
        if status / 100 == 2, status != 200, let statusField {
            throw statusField.error("APNs answers success with 200 only; got \(status)")
        }
        if status != 200, reason == nil, let statusField {
            throw statusField.error(
                "an error answer needs a reason: APNs always sends {\"reason\": ...} with \(status)"
            )
        }
        var timestamp: Date?
        if let timestampField = fields["timestamp"] {
            guard status == 410 else {
                throw timestampField.error("timestamp is sent only with 410 answers; this one is \(status)")
            }
            timestamp = try date(timestampField)
        }
        var delay = ruleDelay
        if let delayField = fields["delay"] {
            if let ruleDelayField {
                throw ruleDelayField.error("delay is given twice: here and in respond; keep one")
            }
            delay = try duration(delayField)
        }
        return .respond(status: status, reason: reason, timestamp: timestamp, delay: delay)
    }

    /// The `match` mapping. Each value is a literal or a value operator (see `ScenarioLoader+MatchCondition`).
    ///
    /// - Parameter allowsDevice: whether `device:` and `token: { issuedFrom: … }` may be given: in `expect:`, not in
    ///   `rules[]`, whose answer the phone only sees afterwards.
    func match(_ field: Field, allowsDevice: Bool) throws(ScenarioError) -> RuleMatch {
        let fields = try field.mapping(
            known: ["token", "topic", "pushType", "headers", "payload", "device", "channel", "operation"])
        var match = RuleMatch()
        try channelTerms(fields, allowsDevice: allowsDevice, into: &match)
        if let device = fields["device"] {
            guard allowsDevice else {
                throw device.error(
                    "a rule cannot match on device: the phone decides after APNs answers, and the rule decides that "
                        + "answer; use device: in an expect: entry's match instead")
            }
            match.device = try deviceCondition(device)
        }
        if let token = fields["token"], try isIssuedToken(token) {
            guard allowsDevice else {
                throw token.error(
                    "a rule cannot match on issuedFrom: the phone issues the token after APNs answers the start, and "
                        + "the check finds it in the run's records; use issuedFrom in an expect: entry's match instead")
            }
            match.issuedToken = try issuedToken(token)
        } else if let token = fields["token"] {
            switch try matchValue(token, subject: .token, literal: { (f: Field) throws(ScenarioError) in
                .string(try deviceToken(f))
            }) {
            case .literal(let value): match.token = value.scalarText
            case .condition(let condition): match.conditions[.token] = condition
            }
        }
        if let topic = fields["topic"] {
            switch try matchValue(topic, subject: .topic, literal: { (f: Field) throws(ScenarioError) in
                .string(try bundleID(f))
            }) {
            case .literal(let value): match.topic = value.scalarText
            case .condition(let condition): match.conditions[.topic] = condition
            }
        }
        if let pushType = fields["pushType"] {
            switch try matchValue(pushType, subject: .pushType, literal: pushTypeName) {
            case .literal(let value): match.pushType = value.scalarText
            case .condition(let condition): match.conditions[.pushType] = condition
            }
        }
        if let headers = fields["headers"] {
            for (name, value) in try headers.freeMapping() {
                guard !name.isEmpty else { throw value.error("a header name must not be empty") }
                let subject = MatchSubject.header(name.lowercased())
                switch try matchValue(value, subject: subject, literal: { (f: Field) throws(ScenarioError) in
                    .string(try f.string())
                }) {
                case .literal(let literal):
                    match.headers[name.lowercased()] = literal.scalarText
                    match.conditions[subject] = nil
                case .condition(let condition):
                    match.conditions[subject] = condition
                    match.headers[name.lowercased()] = nil
                }
            }
        }
        if let payload = fields["payload"] {
            for (path, value) in try payload.freeMapping() {
                guard !path.isEmpty else {
                    throw value.error("a payload path must not be empty (write aps.alert.title)")
                }
                switch try matchValue(value, subject: .payload(path), literal: json) {
                case .literal(let literal):
                    match.payload[path] = literal
                    match.conditions[.payload(path)] = nil
                case .condition(let condition):
                    match.conditions[.payload(path)] = condition
                    match.payload[path] = nil
                }
            }
        }
        return match
    }

    /// `channel:` and `operation:` of an `expect:` match: broadcasts to a channel (`channel` alone), or the channel
    /// operations (`operation`, with or without `channel`), as record terms; the `kind` term says which.
    private func channelTerms(
        _ fields: Fields, allowsDevice: Bool, into match: inout RuleMatch
    ) throws(ScenarioError) {
        let channel = fields["channel"]
        let operation = fields["operation"]
        guard let first = channel ?? operation else { return }
        guard allowsDevice else {
            throw first.error(
                "a rule answers device pushes; channel and operation are for an expect: entry's match (broadcasts "
                    + "and channel operations)")
        }
        for key in ["token", "topic", "pushType", "headers", "payload"] {
            if let extra = fields[key] {
                throw extra.error(
                    "\(key) is a device push's; a match with channel or operation matches broadcasts and channel "
                        + "operations, which have none")
            }
        }
        // A broadcast's `device:` is what its fan-out gave the subscribed activities; a channel operation has none.
        if let device = fields["device"], operation != nil {
            throw device.error(
                "a channel operation reaches no phone: device: goes with channel: alone (a broadcast's fan-out)")
        }
        func term(_ field: Field, _ termField: MatchTerm.Field) throws(ScenarioError) -> MatchTerm {
            let text = try field.string()
            switch MatchTerm.checked(termField, text) {
            case .success(let term): return term
            case .failure(let problem): throw field.error(problem.message)
            }
        }
        let kind: JournalRecord.Kind = operation == nil ? .broadcast : .channel
        match.terms.append(MatchTerm(field: .kind, value: kind.name))
        if let channel { match.terms.append(try term(channel, .channel)) }
        if let operation { match.terms.append(try term(operation, .operation)) }
    }

    /// A `pushType` name, which must be a known push type.
    func pushTypeName(_ field: Field) throws(ScenarioError) -> JSONValue {
        let name = try field.string()
        guard APNsPushType.named(name) != nil else {
            let names = APNsPushType.all.map(\.name).joined(separator: ", ")
            throw field.error("must be one of: \(names); got \(field.shortDescription)")
        }
        return .string(name)
    }

    /// Any YAML value as JSON: scalars by their resolved type, lists as arrays, mappings as objects.
    func json(_ field: Field) throws(ScenarioError) -> JSONValue {
        if case .scalar(let scalar) = field.node {
            try budget.charge(field, textBytes: scalar.string.utf8.count)
        } else {
            try budget.charge(field)
        }
        switch field.node {
        case .scalar(let scalar):
            if field.isQuoted { return .string(scalar.string) }
            switch field.tagName {
            case .null: return .null
            case .bool: return .bool(try field.bool())
            case .int:
                guard let value = Int.construct(from: scalar) else { return .string(scalar.string) }
                return .number(String(value))
            case .float:
                guard let value = Double.construct(from: scalar), value.isFinite else {
                    throw field.error("JSON has no \(scalar.string); write a finite number or quote it as a string")
                }
                return .number(String(value))
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            var elements = [JSONValue]()
            for (index, node) in sequence.enumerated() {
                elements.append(try json(field.element(index, node)))
            }
            return .array(elements)
        case .mapping:
            var members = [(String, JSONValue)]()
            for (key, value) in try field.freeMapping() {
                members.append((key, try json(value)))
            }
            return .object(members)
        case .alias:
            throw field.error("aliases are not supported here")
        }
    }

    /// The longest scripted delay: a day. Longer ones are surely typos, and they would hold streams open.
    static let maximumDelay = Duration.seconds(86_400)

    /// A duration with a unit (`250ms`, `2s`, `1.5s`, `1m`, `1h`) from 0 to `maximum`.
    func duration(_ field: Field, maximum: Duration = maximumDelay) throws(ScenarioError) -> Duration {
        switch DurationText.parse(try field.string(), maximum: maximum) {
        case .success(let duration): return duration
        case .failure(let problem): throw field.error(problem.message)
        }
    }

    /// A duration with a unit within `range`.
    func duration(_ field: Field, in range: ClosedRange<Duration>) throws(ScenarioError) -> Duration {
        switch DurationText.parse(try field.string(), in: range) {
        case .success(let duration): return duration
        case .failure(let problem): throw field.error(problem.message)
        }
    }
}
