import Foundation
import Yams

extension ScenarioLoader.Reader {
    /// The fields an `expect:` entry may have.
    static let expectationFields = [
        "name", "match", "count", "answered", "within", "sequence", "notificationCenter",
    ]

    /// The fields of `notificationCenter:`.
    static let notificationCenterFields = [
        "phone", "token", "app", "title", "subtitle", "body", "threadID", "sender",
    ]

    /// The longest `within:`: a day, like a scripted delay; a run that long is surely a typo.
    static let maximumWithin = Duration.seconds(86_400)

    /// The `expect:` list, in file order.
    func expectations(_ field: Field) throws(ScenarioError) -> [ScenarioExpectation] {
        var expectations = [ScenarioExpectation]()
        var firstLine = [String: Int]()
        for (index, element) in try field.list().enumerated() {
            let fields = try element.mapping(known: Self.expectationFields)
            let name = try uniqueName(
                fields, at: element, default: "expectation \(index + 1)", what: "expectation", firstLine: &firstLine)
            var expectation = ScenarioExpectation(name: name, line: element.node.mark?.line ?? 0)
            if let match = fields["match"] {
                expectation.match = try self.match(match, allowsDevice: true)
            }
            if let sequence = fields["sequence"] {
                if let match = fields["match"] {
                    throw match.error("give match or sequence, not both: a sequence's steps are matches themselves")
                }
                expectation.sequence = try self.sequence(sequence)
                for key in ["count", "answered"] {
                    if let extra = fields[key] {
                        throw extra.error("\(key) is for a match, not a sequence (a sequence is expected once)")
                    }
                }
            }
            if let count = fields["count"] {
                expectation.count = try self.count(count)
            }
            if let answered = fields["answered"] {
                expectation.answered = try self.answered(answered)
            }
            if let within = fields["within"] {
                expectation.within = try duration(within, maximum: Self.maximumWithin)
            }
            if let centre = fields["notificationCenter"] {
                for key in ["match", "sequence", "answered", "within"] {
                    if let extra = fields[key] {
                        throw extra.error(
                            "\(key) is for requests; notificationCenter checks what the phone lists at the end")
                    }
                }
                expectation.notificationCenter = try notificationCenter(centre)
            }
            expectations.append(expectation)
        }
        return expectations
    }

    /// A `notificationCenter:` mapping: `phone` or `token` (one of them), then `app`, `title`, `subtitle`, `body`,
    /// `threadID`, `sender` (a communication notification's person), each a text.
    func notificationCenter(_ field: Field) throws(ScenarioError) -> NotificationCenterCondition {
        let fields = try field.mapping(known: Self.notificationCenterFields)
        var condition = NotificationCenterCondition()
        switch (fields["phone"], fields["token"]) {
        case (let phone?, nil): condition.phone = try phone.string()
        case (nil, let token?):
            let text = try token.string()
            guard let parsed = DeviceToken(text) else {
                throw token.error("expected a device token (hex digits), got \(token.shortDescription)")
            }
            condition.token = parsed.hex
        case (_?, let token?): throw token.error("give phone or token, not both")
        case (nil, nil): throw field.error("give the phone: phone (an id from phones:) or token (a device token)")
        }
        if let app = fields["app"] { condition.app = try app.string() }
        if let title = fields["title"] { condition.title = try title.string() }
        if let subtitle = fields["subtitle"] { condition.subtitle = try subtitle.string() }
        if let body = fields["body"] { condition.body = try body.string() }
        if let threadID = fields["threadID"] { condition.threadID = try threadID.string() }
        if let sender = fields["sender"] {
            let name = try sender.string()
            // A communication notification's sender is never empty (`serviceExtension.communication` refuses it).
            guard !name.isEmpty else { throw sender.error("the sender cannot be empty: name the person, like Mum") }
            condition.sender = name
        }
        return condition
    }

    /// An entry's `name`, or `default`; names are unique within their list (`firstLine` remembers where each was).
    func uniqueName(
        _ fields: Fields, at element: Field, default defaultName: String, what: String,
        firstLine: inout [String: Int]
    ) throws(ScenarioError) -> String {
        var name = defaultName
        if let nameField = fields["name"] {
            name = try nameField.string()
            guard !name.isEmpty else { throw nameField.error("the \(what) name must not be empty") }
            // A name is one line of reports, JUnit and Markdown.
            guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw nameField.error("the \(what) name must be one line, without control characters")
            }
        }
        if let line = firstLine[name] {
            throw (fields["name"] ?? element).error(
                "duplicate \(what) name '\(name)'; it is already used at line \(line)")
        }
        firstLine[name] = (fields["name"] ?? element).node.mark?.line ?? 0
        return name
    }

    /// A `sequence:`: at least two match mappings, in order.
    func sequence(_ field: Field) throws(ScenarioError) -> [RuleMatch] {
        let steps = try field.list()
        guard steps.count >= 2 else {
            throw field.error(
                "a sequence needs at least 2 steps, got \(steps.count); for one request write match instead")
        }
        var matches = [RuleMatch]()
        for step in steps {
            matches.append(try match(step, allowsDevice: true))
        }
        return matches
    }

    /// `count:`: a number of requests (0 for never), or `{ min, max }` with one or both bounds.
    func count(_ field: Field) throws(ScenarioError) -> ClosedRange<Int> {
        guard case .mapping = field.node else {
            let exact = try field.integer(in: 0...Int.max)
            return exact...exact
        }
        let bounds = try field.mapping(known: ["min", "max"])
        guard bounds["min"] != nil || bounds["max"] != nil else {
            throw field.error("give min, max or both (count: { min: 1, max: 3 }), or a number")
        }
        let low = try bounds["min"]?.integer(in: 0...Int.max) ?? 0
        let high = try bounds["max"]?.integer(in: 0...Int.max) ?? Int.max
        if let maxField = bounds["max"], high < low {
            throw maxField.error("max (\(high)) is below min (\(low))")
        }
        return low...high
    }

    /// `answered:`: an HTTP status APNs answers (200; 201 and 204 on the channel port; 4xx, 5xx) or a reason name
    /// (`Unregistered`).
    func answered(_ field: Field) throws(ScenarioError) -> ScenarioExpectation.AnswerCondition {
        if case .scalar = field.node, !field.isQuoted, field.tagName == .int {
            let status = try field.integer(in: 200...599)
            // The channel management port answers a create 201 and a delete 204 (live-activities.md §3).
            guard [200, 201, 204].contains(status) || status >= 400 else {
                throw field.error(
                    "APNs answers 200 (201 and 204 for channel operations) or an error status (4xx, 5xx); got "
                        + "\(status)")
            }
            return ScenarioExpectation.AnswerCondition(status: status)
        }
        let name = try field.string()
        guard APNsReason.named(name) != nil else {
            let guess = Self.reasonTypo(name, hasStatus: false).map { " (did you mean '\($0)'?)" } ?? ""
            throw field.error(
                "expected a status (200, 410, ...) or an APNs reason; '\(name)' is not one\(guess); reason names are "
                    + "case-sensitive")
        }
        return ScenarioExpectation.AnswerCondition(reason: name)
    }
}
