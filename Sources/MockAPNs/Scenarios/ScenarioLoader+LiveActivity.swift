import Foundation

extension ScenarioLoader.Reader {
    /// The fields of `liveActivity:`, one per `LiveActivitySettings` setting (the lifetimes flattened).
    static let liveActivityFields = [
        "maxActive", "maxVisible", "defaultDismissal", "tokenWithoutInputPushToken", "startNeedsAlert",
        "futureTimestampLimit", "oldTimestampLimit", "dateWarningThreshold", "priority10UpdatesPerHour",
        "startsPerWindow", "startWindow", "endedTokenUnregistered",
    ]

    /// How long an activity may be active or visible: a second (to test the end quickly) to a week (Apple's are
    /// 8 and 12 hours; a longer one is surely a typo).
    static let lifetimeRange = Duration.seconds(1)...Duration.seconds(7 * 86_400)
    /// How long an ended activity stays without a `dismissal-date`: none (gone at once) to a week.
    static let dismissalRange = Duration.zero...Duration.seconds(7 * 86_400)
    /// How far a `timestamp` may be ahead of or behind the clock: a second to a year.
    static let timestampLimitRange = Duration.seconds(1)...Duration.seconds(365 * 86_400)
    /// How far from the clock a decoded date may be before a warning: a second to ten years (the Unix-time mix-up
    /// it exists for is 31 years off).
    static let dateWarningRange = Duration.seconds(1)...Duration.seconds(3650 * 86_400)
    /// The push-to-start window: a second to a day.
    static let startWindowRange = Duration.seconds(1)...Duration.seconds(86_400)
    /// How long after the end an update token gets 410: at once to a year.
    static let endedTokenRange = Duration.zero...Duration.seconds(365 * 86_400)
    /// A budget: at least one push (a budget of none would refuse everything; `unlimited` turns it off).
    static let budgetRange = 1...1_000_000

    /// The `liveActivity` section: the simulated phone's lifetimes, budgets and open facts.
    func liveActivity(_ field: Field) throws(ScenarioError) -> LiveActivitySettings {
        let fields = try field.mapping(known: Self.liveActivityFields)
        var settings = LiveActivitySettings()
        if let value = fields["maxActive"] {
            settings.lifetimes.maxActive = try seconds(value, in: Self.lifetimeRange)
        }
        if let value = fields["maxVisible"] {
            settings.lifetimes.maxVisible = try seconds(value, in: Self.lifetimeRange)
        }
        if let value = fields["defaultDismissal"] {
            settings.lifetimes.defaultDismissal = try seconds(value, in: Self.dismissalRange)
        }
        if settings.lifetimes.maxVisible < settings.lifetimes.maxActive {
            let lifetimes = settings.lifetimes
            throw (fields["maxVisible"] ?? fields["maxActive"] ?? field).error(
                "maxVisible (\(Self.durationText(lifetimes.maxVisible))) must be at least maxActive "
                    + "(\(Self.durationText(lifetimes.maxActive))): an activity stays visible while it is active")
        }
        if let value = fields["tokenWithoutInputPushToken"] {
            settings.tokenWithoutInputPushToken = try value.bool()
        }
        if let value = fields["startNeedsAlert"] {
            settings.startNeedsAlert = try value.bool()
        }
        if let value = fields["futureTimestampLimit"] {
            settings.futureTimestampLimit = try secondsOrOff(value, in: Self.timestampLimitRange)
        }
        if let value = fields["oldTimestampLimit"] {
            settings.oldTimestampLimit = try secondsOrOff(value, in: Self.timestampLimitRange)
        }
        if let value = fields["dateWarningThreshold"] {
            settings.dateWarningThreshold = try seconds(value, in: Self.dateWarningRange)
        }
        if let value = fields["priority10UpdatesPerHour"] {
            settings.priority10UpdatesPerHour = try budget(value)
        }
        if let value = fields["startsPerWindow"] {
            settings.startsPerWindow = try budget(value)
        }
        if let value = fields["startWindow"] {
            settings.startWindow = try seconds(value, in: Self.startWindowRange)
        }
        if let value = fields["endedTokenUnregistered"] {
            settings.endedTokenUnregistered = try secondsOrOff(value, in: Self.endedTokenRange)
        }
        return settings
    }

    /// A duration (`8h`, `90s`) within `range`, in seconds.
    private func seconds(_ field: Field, in range: ClosedRange<Duration>) throws(ScenarioError) -> TimeInterval {
        DurationText.seconds(try duration(field, in: range))
    }

    /// `off` (`nil`), or a duration within `range` in seconds.
    private func secondsOrOff(_ field: Field, in range: ClosedRange<Duration>) throws(ScenarioError) -> TimeInterval? {
        if case .scalar(let scalar) = field.node, scalar.string == "off" { return nil }
        guard case .scalar = field.node, !field.isNull else {
            throw field.error("expected a duration such as 8h or 120s, or off; got \(field.shortDescription)")
        }
        return try seconds(field, in: range)
    }

    /// `unlimited` (`nil`), or a count within `budgetRange`.
    private func budget(_ field: Field) throws(ScenarioError) -> Int? {
        if case .scalar(let scalar) = field.node, scalar.string == "unlimited" { return nil }
        guard field.tagName == .int, !field.isQuoted else {
            throw field.error(
                "expected a number of pushes (at least \(Self.budgetRange.lowerBound)) or unlimited; "
                    + "got \(field.shortDescription)")
        }
        return try field.integer(in: Self.budgetRange)
    }

    /// `seconds` as a scenario writes it: `8h`, `10m`, `1.5s`, `250ms`; a time that is not whole milliseconds as
    /// seconds with every digit, so that it loads back the same.
    static func durationText(_ seconds: TimeInterval) -> String {
        let milliseconds = seconds * 1000
        guard milliseconds.rounded() == milliseconds, abs(milliseconds) < 1e15 else { return "\(seconds)s" }
        return DurationText.text(.milliseconds(Int64(milliseconds)))
    }
}
