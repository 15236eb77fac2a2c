import Foundation
import Yams

extension ScenarioLoader.Reader {
    /// A `match` value: a literal (parsed by the field's own rules) or a value operator.
    enum MatchValue {
        /// A literal, compared as `match` always compared (also what `{ equals: … }` gives).
        case literal(JSONValue)
        /// A value operator.
        case condition(MatchCondition)
    }

    /// The value of `match.<subject>`: a literal as `literal` parses it, or an operator mapping.
    ///
    /// For text fields (token, topic, pushType, headers) every mapping is an operator mapping. For payload paths a
    /// mapping is a literal object unless one of its keys is an operator name (or a lone key is a near miss of one);
    /// `{ equals: … }` matches any literal, including an object with such keys.
    func matchValue(
        _ field: Field, subject: MatchSubject, literal: (Field) throws(ScenarioError) -> JSONValue
    ) throws(ScenarioError) -> MatchValue {
        guard case .mapping = field.node else { return .literal(try literal(field)) }
        let entries = try field.freeMapping()
        if subject.isPayload, !MatchCondition.isOperatorMapping(keys: entries.map(\.key)) {
            return .literal(try literal(field))
        }
        let names = MatchCondition.operatorNames.joined(separator: ", ")
        guard !entries.isEmpty else {
            throw field.error("expected a literal or one operator (\(names)), got an empty mapping")
        }
        for (key, value) in entries where !MatchCondition.operatorNames.contains(key) {
            let known = MatchCondition.operatorNames
            let guess = MatchCondition.nearMiss(key) ?? NameSuggestion.closest(to: key, among: known)
            let hint = guess.map { " (did you mean '\($0)'?)" } ?? ""
            let literalHint = subject.isPayload ? "; to match an object with this key, write { equals: {...} }" : ""
            throw value.error("unknown match operator '\(key)'\(hint); operators: \(names)\(literalHint)")
        }
        let keys = entries.map(\.key)
        if keys.count > 1, !keys.allSatisfy({ $0 == "min" || $0 == "max" }) {
            throw field.error(
                "give one operator per value (only min and max go together); got \(keys.joined(separator: ", "))"
            )
        }
        let value = entries[0].field
        switch entries[0].key {
        case "equals":
            return .literal(try literal(value))
        case "regex":
            return .condition(.regex(try pattern(value)))
        case "exists":
            return .condition(.exists(try value.bool()))
        case "oneOf":
            let elements = try value.list()
            guard !elements.isEmpty else { throw value.error("oneOf needs at least one value") }
            var literals = [JSONValue]()
            for element in elements {
                literals.append(try literal(element))
            }
            return .condition(.oneOf(literals))
        default:
            return .condition(try range(entries, in: field, subject: subject))
        }
    }

    /// A `regex` operator's pattern: a non-empty string of at most `MatchPattern.maximumLength` bytes that compiles.
    func pattern(_ field: Field) throws(ScenarioError) -> MatchPattern {
        let text = try field.string()
        guard !text.isEmpty else { throw field.error("a regex must not be empty (use { exists: true } instead)") }
        guard text.utf8.count <= MatchPattern.maximumLength else {
            throw field.error(
                "a regex is at most \(MatchPattern.maximumLength) bytes; this one is \(text.utf8.count)"
            )
        }
        guard !MatchPattern.repeatsRepetition(text) else {
            throw field.error(
                "a regex must not repeat a group that itself repeats, like (a+)+: on a long value that almost "
                    + "matches it can take exponential time; repeat the inner part only")
        }
        do {
            return try MatchPattern(text)
        } catch {
            throw field.error("not a valid regular expression: \(text)")
        }
    }

    /// A `{ min: n, max: n }` operator: one or both finite numbers, min ≤ max; only on numeric values.
    func range(
        _ entries: [(key: String, field: Field)], in field: Field, subject: MatchSubject
    ) throws(ScenarioError) -> MatchCondition {
        switch subject {
        case .payload, .header: break
        case .token, .topic, .pushType:
            throw field.error("min and max compare numbers: use them on a payload value or a header")
        }
        var low: Double?
        var high: Double?
        for (key, value) in entries {
            let number = try self.number(value)
            if key == "min" { low = number } else { high = number }
        }
        if let low, let high, low > high, let maxField = entries.first(where: { $0.key == "max" })?.field {
            throw maxField.error(
                "max (\(MatchCondition.numberText(high))) is below min (\(MatchCondition.numberText(low)))")
        }
        return .range(min: low, max: high)
    }

    /// A finite number written without quotes (`5`, `-1.5`, `1e+300`).
    func number(_ field: Field) throws(ScenarioError) -> Double {
        guard case .scalar(let scalar) = field.node, !field.isQuoted, !field.isNull,
            field.tagName == .int || field.tagName == .float || field.tagName == .str,
            let value = Double(scalar.string.replacingOccurrences(of: "_", with: "")), value.isFinite
        else {
            throw field.error("expected a finite number, got \(field.shortDescription)")
        }
        return value
    }
}
