extension JournalQuery {
    /// The query parameter names the control API knows, in the order they are written.
    public static let parameterNames = Field.allCases.map(\.rawValue) + ["since", "limit"]

    /// The query as `name=value` pairs, in `parameterNames` order (what the HTTP client sends).
    public var parameters: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = Field.allCases.compactMap { field in
            expected(field).map { (field.rawValue, $0) }
        }
        if let since { items.append(("since", String(since))) }
        if let limit { items.append(("limit", String(limit))) }
        return items
    }

    /// `token=… topic=…`, or `any request` for an empty query: for messages.
    public var summary: String {
        let items = parameters
        return items.isEmpty ? "any request" : items.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }

    /// Reads a query from `name=value` parameters, refusing unknown names, repeats and bad values.
    ///
    /// - Parameters:
    ///   - parameters: the decoded query parameters, in order.
    ///   - extra: names the caller handles itself (`count`, `timeout`); their values are returned, not read.
    /// - Returns: the query and the values of the `extra` parameters present.
    public static func parse(
        _ parameters: [(name: String, value: String)], extra: [String] = []
    ) throws(MockAPNsControlError) -> (query: JournalQuery, extra: [String: String]) {
        var query = JournalQuery()
        var extras: [String: String] = [:]
        var seen: Set<String> = []
        for (name, value) in parameters {
            guard seen.insert(name).inserted else {
                throw .badRequest("the parameter '\(name)' is given twice; give it once")
            }
            if extra.contains(name) {
                extras[name] = value
                continue
            }
            guard let known = parameterNames.first(where: { $0 == name }) else {
                let names = (parameterNames + extra).joined(separator: ", ")
                throw .badRequest("unknown filter '\(name)'; the filters are: \(names)")
            }
            try query.set(known, to: value)
        }
        return (query, extras)
    }

    private mutating func set(_ name: String, to value: String) throws(MockAPNsControlError) {
        guard !value.isEmpty else { throw .badRequest("the filter '\(name)' is empty; give it a value") }
        switch name {
        case "token":
            guard let valid = DeviceToken(value) else {
                throw .badRequest("token must be an even number of hex digits (a device token), got '\(value)'")
            }
            token = valid.hex
        case "topic": topic = value
        case "pushType":
            guard APNsPushType.named(value) != nil else {
                let names = APNsPushType.all.map(\.name).joined(separator: ", ")
                throw .badRequest("pushType must be one of: \(names); got '\(value)'")
            }
            pushType = value
        case "apnsID": apnsID = value
        case "status":
            guard let number = Int(value), (100...599).contains(number) else {
                throw .badRequest("status must be an HTTP status from 100 to 599, such as 200 or 410; got '\(value)'")
            }
            status = number
        case "reason": reason = value
        case "accepted":
            guard value == "true" || value == "false" else {
                throw .badRequest("accepted must be true or false, got '\(value)'")
            }
            accepted = value == "true"
        case "connection": connection = try Self.unsigned(name, value)
        case "device":
            guard let kind = DeviceOutcome.Kind(rawValue: value) else {
                let names = DeviceOutcome.Kind.allCases.map(\.rawValue)
                throw .badRequest(
                    "device must be one of: \(names.joined(separator: ", ")); got '\(value)'"
                        + NameSuggestion.hint(for: value, among: names))
            }
            device = kind
        case "warnings":
            guard value == "none" || value == "some" else {
                throw .badRequest("warnings must be none or some, got '\(value)'")
            }
            deviceWarnings = value == "some"
        case "since": since = try Self.unsigned(name, value)
        default:
            guard let number = Int(value), number >= 1 else {
                throw .badRequest("limit must be a whole number of at least 1, got '\(value)'")
            }
            limit = number
        }
    }

    private static func unsigned(_ name: String, _ value: String) throws(MockAPNsControlError) -> UInt64 {
        guard let number = UInt64(value) else {
            throw .badRequest("\(name) must be a whole number (0 or more), got '\(value)'")
        }
        return number
    }
}
