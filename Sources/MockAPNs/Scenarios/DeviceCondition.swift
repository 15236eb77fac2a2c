/// What the simulated phone must have done with a push: the `device:` part of an `expect:` match.
///
/// APNs answers 200 to almost every Live Activity mistake and the phone then drops the push (live-activities.md),
/// so `answered: 200` alone cannot tell a CI run that the update reached the screen; this can. Only expectations
/// take it: the phone decides after the APNs answer, so a scripted rule, which decides that answer, cannot depend
/// on it (the loader refuses `device:` in `rules[].match`). A request without a device part never passes.
///
/// ```yaml
/// device: { outcome: applied, warnings: none }
/// device: { outcome: [dropped, ignored], reason: { regex: "content-state" } }
/// device: { outcome: notLaunched, rule: background-force-quit }
/// device: { outcome: shown, fired: [sound-not-bundled] }
/// device: { outcome: applied, count: 3 }     # a broadcast: exactly 3 subscribed activities applied it
/// ```
public struct DeviceCondition: Sendable {
    /// The outcomes that pass (`outcome: applied` or `outcome: [applied, started]`); empty: any outcome (then a
    /// rule or a fired rule is given).
    public var outcomes: [DeviceOutcome.Kind]
    /// The rules that may have decided (`rule: alert-shown`, or a list); empty: any rule.
    public var rules: [DeviceRule] = []
    /// The rules that must all have fired, deciding or as a modifier (`fired: [sound-not-bundled]`).
    public var fired: [DeviceRule] = []
    /// A test on the outcome's reason: a literal (`equals`) or a value operator such as `regex`.
    public var reason: MatchCondition?
    /// `warnings: none`: the outcome must carry no warning (a date that decodes to 2057, say).
    public var noWarnings: Bool
    /// `final: true`: only the push's latest outcome counts (its last event's, else its record's); otherwise the
    /// record's outcome or any later event's may pass (phone.md §5, "Events").
    public var final = false
    /// `count: 3` (or `{ min: 1 }`): how many of the push's outcomes must pass, rather than any one. Made for a
    /// broadcast, whose outcomes are those of every activity its fan-out reached (issue 24); a device push has its
    /// record's outcome and its later events'.
    public var count: ClosedRange<Int>?

    /// A condition passing the outcomes `outcomes` (any when empty), decided by one of `rules` (any when empty),
    /// having fired every one of `fired`, with `reason` and without warnings when asked.
    public init(
        _ outcomes: [DeviceOutcome.Kind], rules: [DeviceRule] = [], fired: [DeviceRule] = [],
        reason: MatchCondition? = nil, noWarnings: Bool = false
    ) {
        self.outcomes = outcomes
        self.rules = rules
        self.fired = fired
        self.reason = reason
        self.noWarnings = noWarnings
    }

    /// Whether the push passes: its record's device part `device` (`nil` when the push reached no simulated phone)
    /// or one of `later`, the outcomes of its later events in order (a delivery's: what the phone then did); under
    /// `final`, only the last of them.
    func passes(_ device: DeviceOutcome?, later: [DeviceOutcome]) -> Bool {
        if let count {
            let passing = (final ? [later.last ?? device] : [device] + later).count { passes($0) }
            return count.contains(passing)
        }
        if final { return passes(later.last ?? device) }
        return passes(device) || later.contains { passes($0) }
    }

    /// Whether `device`, one outcome of the push, passes.
    func passes(_ device: DeviceOutcome?) -> Bool {
        guard let device, outcomes.isEmpty || outcomes.contains(device.kind) else { return false }
        if !rules.isEmpty, !rules.contains(where: { $0 == device.rule }) { return false }
        if !fired.allSatisfy(device.fired) { return false }
        if let reason, !reason.matches(text: device.reason) { return false }
        return !noWarnings || device.warnings.isEmpty
    }

    /// `phone applied`, `phone dropped or ignored, reason {"regex":"decode"}`, `phone applied with no warnings`.
    var text: String { "phone \(expectedText)" }

    /// What the condition asks, as a near miss says it: `applied`, `applied with no warnings`, `notLaunched by
    /// background-force-quit`, `shown having fired sound-not-bundled`.
    var expectedText: String {
        var text = outcomes.isEmpty ? "any outcome" : outcomes.map(\.rawValue).joined(separator: " or ")
        if !rules.isEmpty { text += " by " + rules.map(\.id).joined(separator: " or ") }
        if !fired.isEmpty { text += " having fired " + fired.map(\.id).joined(separator: " and ") }
        if let reason { text += ", reason \(Self.reasonText(reason))" }
        if noWarnings { text += " with no warnings" }
        if final { text += " in the end" }
        if let count { text += " for \(Self.countText(count)) of its outcomes" }
        return text
    }

    /// What a record's device part was, as a near miss says it: `dropped: content-state.status: expected String,
    /// found number`, `applied with warnings: …`, or why there was none; `namingRules` adds the rules that fired
    /// (`shown: … (rules: alert-shown, sound-off)`).
    static func actualText(_ device: DeviceOutcome?, namingRules: Bool = false) -> String {
        guard let device else { return "absent (the push reached no simulated phone)" }
        var text = device.summary
        if namingRules {
            // The condition asks which rules fired: say which did, the deciding one first.
            let rules = ([device.rule].compactMap { $0 } + device.trace.filter { $0 != device.rule }).map(\.id)
            text += " (rules: \(rules.isEmpty ? "none" : rules.joined(separator: ", ")))"
        }
        guard !device.warnings.isEmpty else { return text }
        return "\(text) with warnings: \(device.warnings.joined(separator: "; "))"
    }

    /// `exactly 3`, `at least 1`, `at most 2`, `1 to 3`.
    private static func countText(_ count: ClosedRange<Int>) -> String {
        switch (count.lowerBound, count.upperBound) {
        case (let low, let high) where low == high: "exactly \(low)"
        case (let low, Int.max): "at least \(low)"
        case (0, let high): "at most \(high)"
        case (let low, let high): "\(low) to \(high)"
        }
    }

    /// Whether the condition asks which rule decided or fired.
    var asksRules: Bool { !rules.isEmpty || !fired.isEmpty }

    /// A reason condition as written: a literal as its JSON string, an operator as its mapping.
    private static func reasonText(_ reason: MatchCondition) -> String {
        if case .oneOf(let literals) = reason, literals.count == 1 { return literals[0].jsonText }
        return reason.scenarioJSON.jsonText
    }
}
