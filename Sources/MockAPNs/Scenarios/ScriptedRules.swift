import NIOConcurrencyHelpers

/// The scenario's scripted rules and their counters: counts the requests each rule matches and picks the first rule
/// that applies. Locked, shared by every connection through `MockAPNsEngine.rules`.
public final class ScriptedRules: Sendable {
    private struct Entry {
        var rule: ScriptedRule
        var matched = 0
        var applied = 0
    }

    private let entries: NIOLockedValueBox<[Entry]>

    /// `rules` in order, every counter at zero.
    public init(rules: [ScriptedRule] = []) {
        entries = NIOLockedValueBox(rules.map { Entry(rule: $0) })
    }

    /// The rule that decides `request`, if any. Every rule matching the request counts it, applied or not.
    public func ruleApplying(to request: APNsRequest) -> ScriptedRule? {
        entries.withLockedValue { entries in
            guard !entries.isEmpty else { return nil }
            var payload: JSONValue??
            var chosen: ScriptedRule?
            for index in entries.indices {
                let rule = entries[index].rule
                guard rule.match.matches(request.content, payload: &payload) else { continue }
                entries[index].matched += 1
                guard chosen == nil else { continue }
                if let nth = rule.nth, entries[index].matched != nth { continue }
                if let times = rule.times, entries[index].applied >= times { continue }
                entries[index].applied += 1
                chosen = rule
            }
            return chosen
        }
    }

    /// Whether a rule exists; lets the hot path skip the lock when none is configured.
    public var isEmpty: Bool { entries.withLockedValue { $0.isEmpty } }

    /// The rules, in order.
    public var rules: [ScriptedRule] { entries.withLockedValue { $0.map(\.rule) } }

    /// The rules in order, each with its counters, read together.
    public var counts: [ScriptedRuleCount] {
        entries.withLockedValue { $0.map { ScriptedRuleCount(rule: $0.rule, matched: $0.matched, applied: $0.applied) } }
    }

    /// Replaces every rule (counters start over).
    public func replaceRules(_ rules: [ScriptedRule]) {
        entries.withLockedValue { $0 = rules.map { Entry(rule: $0) } }
    }

    /// Adds rules after the existing ones.
    public func addRules(_ rules: [ScriptedRule]) {
        entries.withLockedValue { $0.append(contentsOf: rules.map { Entry(rule: $0) }) }
    }

    /// Sets every rule's counters back to zero.
    public func resetCounters() {
        entries.withLockedValue { entries in
            for index in entries.indices {
                entries[index].matched = 0
                entries[index].applied = 0
            }
        }
    }

    /// Whether `request` matches `match`: the rules' and expectations' one matcher, `RuleMatch.matches`.
    static func matches(_ match: RuleMatch, _ request: APNsRequest, payload: inout JSONValue??) -> Bool {
        match.matches(request.content, payload: &payload)
    }
}
