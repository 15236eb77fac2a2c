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
/// ```
public struct DeviceCondition: Sendable {
    /// The outcomes that pass (`outcome: applied` or `outcome: [applied, started]`); at least one.
    public var outcomes: [DeviceOutcome.Kind]
    /// A test on the outcome's reason: a literal (`equals`) or a value operator such as `regex`.
    public var reason: MatchCondition?
    /// `warnings: none`: the outcome must carry no warning (a date that decodes to 2057, say).
    public var noWarnings: Bool

    /// A condition passing the outcomes `outcomes`, with `reason` and without warnings when asked.
    public init(_ outcomes: [DeviceOutcome.Kind], reason: MatchCondition? = nil, noWarnings: Bool = false) {
        self.outcomes = outcomes
        self.reason = reason
        self.noWarnings = noWarnings
    }

    /// Whether `device`, a record's device part (`nil` when the push reached no simulated activity), passes.
    func passes(_ device: DeviceOutcome?) -> Bool {
        guard let device, outcomes.contains(device.kind) else { return false }
        if let reason, !reason.matches(text: device.reason) { return false }
        return !noWarnings || device.warnings.isEmpty
    }

    /// `phone applied`, `phone dropped or ignored, reason {"regex":"decode"}`, `phone applied with no warnings`.
    var text: String { "phone \(expectedText)" }

    /// What the condition asks, as a near miss says it: `applied`, `applied with no warnings`.
    var expectedText: String {
        var text = outcomes.map(\.rawValue).joined(separator: " or ")
        if let reason { text += ", reason \(Self.reasonText(reason))" }
        if noWarnings { text += " with no warnings" }
        return text
    }

    /// What a record's device part was, as a near miss says it: `dropped: content-state.status: expected String,
    /// found number`, `applied with warnings: …`, or why there was none.
    static func actualText(_ device: DeviceOutcome?) -> String {
        guard let device else { return "absent (the push reached no simulated Live Activity)" }
        guard !device.warnings.isEmpty else { return device.summary }
        return "\(device.summary) with warnings: \(device.warnings.joined(separator: "; "))"
    }

    /// A reason condition as written: a literal as its JSON string, an operator as its mapping.
    private static func reasonText(_ reason: MatchCondition) -> String {
        if case .oneOf(let literals) = reason, literals.count == 1 { return literals[0].jsonText }
        return reason.scenarioJSON.jsonText
    }
}
