extension JournalQuery: FilterQuery {
    /// The query parameter names the control API knows, in the order they are written.
    public static let parameterNames = Field.allCases.map(\.rawValue) + ["since", "after", "before", "limit"]

    /// The query as `name=value` pairs, in `parameterNames` order (what the HTTP client sends).
    public var parameters: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = Field.allCases.compactMap { field in
            expected(field).map { (field.rawValue, $0) }
        }
        if let since { items.append(("since", String(since))) }
        if let after { items.append(("after", after.description)) }
        if let before { items.append(("before", before.description)) }
        if let limit { items.append(("limit", String(limit))) }
        return items
    }

    /// A query with no filter: every record.
    public init() { self.init(token: nil) }

    /// What a query with no filter matches, for messages.
    public static let everything = "any request"

    /// Sets the filter `name` from its text, or throws a 400 that names it (`FilterQuery.parse` calls it).
    public mutating func setFilter(_ name: String, to value: String) throws(MockAPNsControlError) {
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
        case "after": after = try Self.timePoint(name, value)
        case "before": before = try Self.timePoint(name, value)
        case "limit":
            guard let number = Int(value), number >= 1 else {
                throw .badRequest("limit must be a whole number of at least 1, got '\(value)'")
            }
            limit = number
        default:
            throw Self.unknownFilter(name)
        }
    }

    private static func timePoint(_ name: String, _ value: String) throws(MockAPNsControlError) -> TimePoint {
        switch TimePoint.parse(value) {
        case .success(let point): return point
        case .failure(let problem): throw .badRequest("\(name): \(problem.message)")
        }
    }

    private static func unsigned(_ name: String, _ value: String) throws(MockAPNsControlError) -> UInt64 {
        guard let number = UInt64(value) else {
            throw .badRequest("\(name) must be a whole number (0 or more), got '\(value)'")
        }
        return number
    }
}
