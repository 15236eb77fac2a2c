import Foundation
import Yams

extension ScenarioLoader.Reader {
    /// The fields of a `device:` condition.
    static let deviceConditionFields = ["outcome", "rule", "fired", "reason", "warnings", "final", "count"]

    /// The outcome names, for messages.
    static let deviceOutcomeNames = DeviceOutcome.Kind.allCases.map(\.rawValue)

    /// A `device:` mapping of an expectation's match: `outcome` (one kind or a list), `rule` (the rule that decided:
    /// one id or a list), `fired` (rules that must all have fired: one id or a list) — at least one of the three —,
    /// `reason` (a literal or a value operator, as other text fields), `warnings: none`, `final: true` (only the
    /// push's latest outcome, after its later events), `count` (how many outcomes must pass: a broadcast's are its
    /// fan-out's, one per activity; a number or `{ min, max }`).
    func deviceCondition(_ field: Field) throws(ScenarioError) -> DeviceCondition {
        guard case .mapping = field.node else {
            throw field.error(
                "expected a mapping such as { outcome: applied }, got \(field.shortDescription); fields: "
                    + Self.deviceConditionFields.joined(separator: ", "))
        }
        let fields = try field.mapping(known: Self.deviceConditionFields)
        guard fields["outcome"] != nil || fields["rule"] != nil || fields["fired"] != nil else {
            throw field.error(
                "give at least one of outcome (what the phone did), rule (the rule that decided) or fired (rules "
                    + "that fired), such as { outcome: shown } or { rule: background-force-quit }")
        }
        var condition = DeviceCondition(
            try fields["outcome"].map { (f: Field) throws(ScenarioError) in try deviceOutcomes(f) } ?? [])
        if let rule = fields["rule"] { condition.rules = try deviceRules(rule) }
        if let fired = fields["fired"] { condition.fired = try deviceRules(fired) }
        if let reason = fields["reason"] {
            condition.reason = try deviceReason(reason)
        }
        if let warnings = fields["warnings"] {
            guard case .scalar = warnings.node, (try? warnings.string()) == "none" else {
                throw warnings.error(
                    "warnings takes only none (the phone must have seen nothing wrong), got "
                        + warnings.shortDescription)
            }
            condition.noWarnings = true
        }
        if let final = fields["final"] { condition.final = try final.bool() }
        if let count = fields["count"] { condition.count = try self.count(count) }
        return condition
    }

    /// `outcome:`: one outcome name, or a non-empty list of them without repeats.
    private func deviceOutcomes(_ field: Field) throws(ScenarioError) -> [DeviceOutcome.Kind] {
        guard case .sequence = field.node else { return [try deviceOutcome(field)] }
        let elements = try field.list()
        guard !elements.isEmpty else {
            throw field.error("give at least one outcome: \(Self.deviceOutcomeNames.joined(separator: ", "))")
        }
        var kinds = [DeviceOutcome.Kind]()
        for element in elements {
            let kind = try deviceOutcome(element)
            guard !kinds.contains(kind) else { throw element.error("the outcome \(kind.rawValue) is given twice") }
            kinds.append(kind)
        }
        return kinds
    }

    /// `rule:` or `fired:`: one rule id, or a non-empty list of them without repeats.
    private func deviceRules(_ field: Field) throws(ScenarioError) -> [DeviceRule] {
        guard case .sequence = field.node else { return [try deviceRule(field)] }
        let elements = try field.list()
        guard !elements.isEmpty else { throw field.error("give at least one rule id, such as alert-shown") }
        var rules = [DeviceRule]()
        for element in elements {
            let rule = try deviceRule(element)
            guard !rules.contains(rule) else { throw element.error("the rule \(rule.id) is given twice") }
            rules.append(rule)
        }
        return rules
    }

    /// One rule id the phone knows (phone.md §5); an unknown one is refused with the closest id.
    private func deviceRule(_ field: Field) throws(ScenarioError) -> DeviceRule {
        let id = try field.string()
        if let rule = DeviceRule.named(id) { return rule }
        throw field.error(
            "unknown device rule '\(id)'\(NameSuggestion.hint(for: id, among: DeviceRule.ids)); the rules are in "
                + "docs/phone.md and docs/live-activities.md")
    }

    /// One outcome name; an unknown one is refused with the closest name.
    private func deviceOutcome(_ field: Field) throws(ScenarioError) -> DeviceOutcome.Kind {
        let name = try field.string()
        if let kind = DeviceOutcome.Kind(rawValue: name) { return kind }
        let names = Self.deviceOutcomeNames
        throw field.error(
            "unknown device outcome '\(name)'\(NameSuggestion.hint(for: name, among: names)); outcomes: "
                + names.joined(separator: ", "))
    }

    /// `reason:`: a literal (the whole reason) or one of the text operators (`regex`, `exists`, `oneOf`, `equals`).
    private func deviceReason(_ field: Field) throws(ScenarioError) -> MatchCondition {
        if case .mapping = field.node, try field.freeMapping().contains(where: { $0.key == "min" || $0.key == "max" }) {
            throw field.error("min and max compare numbers; a device reason is text: use regex, oneOf or equals")
        }
        // The reason is text like a topic: every mapping is an operator mapping, a literal is kept as a one-value
        // oneOf so that one condition type covers both.
        switch try matchValue(
            field, subject: .topic,
            literal: { (f: Field) throws(ScenarioError) in
                .string(try f.string())
            })
        {
        case .literal(let value): return .oneOf([value])
        case .condition(let condition): return condition
        }
    }
}
