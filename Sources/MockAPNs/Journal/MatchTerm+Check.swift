extension MatchTerm {
    /// `value` made canonical for `field` (a token in lower case, a number without leading zeros), or what is wrong
    /// with it, naming the field `name` (the search text's `type`, the query parameter's `pushType`).
    ///
    /// The one check of a value a person typed for a record field: `q=` and the query parameters both use it, so
    /// `token=xyz` and `q=token:xyz` are refused in the same words.
    /// The values of `aps.event` in a Live Activity push.
    static let events = ["start", "update", "end"]

    static func check(_ field: Field, _ value: String, named name: String? = nil) -> Result<String, Problem> {
        let name = name ?? field.rawValue
        func problem(_ text: String) -> Result<String, Problem> { .failure(Problem(message: "\(name) \(text)")) }
        switch field {
        case .token:
            guard let token = DeviceToken(value) else {
                return problem("must be an even number of hex digits (a device token), got '\(value)'")
            }
            return .success(token.hex)
        case .type:
            guard APNsPushType.named(value) != nil else {
                let names = APNsPushType.all.map(\.name)
                return problem(
                    "must be one of: \(names.joined(separator: ", ")); got '\(value)'"
                        + NameSuggestion.hint(for: value, among: names))
            }
            return .success(value)
        case .priority:
            guard let number = UInt8(value) else {
                return problem("must be a whole number such as 5 or 10, got '\(value)'")
            }
            return .success(String(number))
        case .status:
            if value.count == 3, value.hasSuffix("xx"), let digit = value.first?.wholeNumberValue,
                (1...5).contains(digit)
            {
                return .success(value)
            }
            guard let number = Int(value), (100...599).contains(number) else {
                return problem(
                    "must be an HTTP status from 100 to 599 (such as 410) or a class (such as 4xx); got '\(value)'")
            }
            return .success(String(number))
        case .connection:
            guard let number = UInt64(value) else {
                return problem("must be a whole number (0 or more), got '\(value)'")
            }
            return .success(String(number))
        case .accepted:
            guard value == "true" || value == "false" else { return problem("must be true or false, got '\(value)'") }
            return .success(value)
        case .device:
            guard DeviceOutcome.Kind(rawValue: value) != nil else {
                let names = DeviceOutcome.Kind.allCases.map(\.rawValue)
                return problem(
                    "must be one of: \(names.joined(separator: ", ")); got '\(value)'"
                        + NameSuggestion.hint(for: value, among: names))
            }
            return .success(value)
        case .warnings:
            guard value == "none" || value == "some" else { return problem("must be none or some, got '\(value)'") }
            return .success(value)
        case .deviceRule:
            guard DeviceRule.named(value) != nil else {
                return problem(
                    "must be a rule of the simulated phone, such as alert-shown or background-force-quit; got "
                        + "'\(value)'" + NameSuggestion.hint(for: value, among: DeviceRule.ids))
            }
            return .success(value)
        case .activity:
            guard value.count >= ActivityRegistry.minimumIDPrefix else {
                return problem(
                    "needs at least \(ActivityRegistry.minimumIDPrefix) characters of an activity id (as "
                        + "`mock-apns activities` prints it, such as 0c6f1a2b), got '\(value)'")
            }
            return .success(value.uppercased())
        case .event:
            guard Self.events.contains(value) else {
                return problem(
                    "must be one of: \(Self.events.joined(separator: ", ")) (a Live Activity push's aps.event); got "
                        + "'\(value)'" + NameSuggestion.hint(for: value, among: Self.events))
            }
            return .success(value)
        case .after, .before:
            if case .failure(let failure) = TimePoint.parse(value) {
                return .failure(Problem(message: "\(name): \(failure.message)"))
            }
            return .success(value)
        case .channel:
            guard BroadcastChannel.isWellFormedID(value) else {
                return problem(
                    "must be a channel id in base64 (as `mock-apns channels create` prints it), got '\(value)'")
            }
            return .success(value)
        case .operation:
            guard ChannelOperation(rawValue: value) != nil else {
                let names = ChannelOperation.allCases.map(\.rawValue)
                return problem(
                    "must be one of: \(names.joined(separator: ", ")) (a channel operation); got '\(value)'"
                        + NameSuggestion.hint(for: value, among: names))
            }
            return .success(value)
        case .topic, .reason, .rule, .apnsID, .collapseID, .kind, .text:
            return .success(value)
        }
    }
}
