/// A scripted rule and how often it was used since it was added (or the counters were last reset): what
/// `GET /v1/rules` answers and the inspector's World view shows as hits.
public struct ScriptedRuleCount: Sendable {
    /// The rule, as loaded.
    public var rule: ScriptedRule
    /// Requests that matched the rule's `match`, whether or not it then decided them (`nth`, `times`, or an earlier
    /// rule deciding first).
    public var matched: Int
    /// Requests the rule decided: its hits.
    public var applied: Int

    /// The counts of `rule`.
    public init(rule: ScriptedRule, matched: Int, applied: Int) {
        self.rule = rule
        self.matched = matched
        self.applied = applied
    }

    /// `{"rule": <the rule as in a scenario's rules:>, "matched": n, "applied": n}`.
    public var json: JSONValue {
        .object([
            ("rule", rule.scenarioJSON), ("matched", .number(String(matched))), ("applied", .number(String(applied))),
        ])
    }
}
