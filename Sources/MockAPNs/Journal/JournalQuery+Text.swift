extension JournalQuery: FilterQuery {
    /// The query parameter names the control API knows, in the order they are written.
    public static let parameterNames =
        Field.allCases.map(\.rawValue) + ["since", "olderThan", "after", "before", "limit"]

    /// The query as `name=value` pairs, in `parameterNames` order (what the HTTP client sends).
    public var parameters: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = Field.allCases.compactMap { field in
            expected(field).map { (field.rawValue, $0) }
        }
        if let since { items.append(("since", String(since))) }
        if let olderThan { items.append(("olderThan", String(olderThan))) }
        if let after { items.append(("after", after.description)) }
        if let before { items.append(("before", before.description)) }
        if let limit { items.append(("limit", String(limit))) }
        return items
    }

    /// A query with no filter: every record.
    public init() { self.init(token: nil) }

    /// What a query with no filter matches, for messages.
    public static let everything = "any request"

    /// Sets the filter `name` from its text, or throws an `InputError` that names it (`FilterQuery.parse` calls it).
    public mutating func setFilter(_ name: String, to value: String) throws(InputError) {
        switch name {
        case "since": since = try Self.unsigned(name, value)
        case "olderThan":
            guard let number = UInt64(value), number >= 1 else {
                throw InputError(
                    "olderThan must be a record's sequence number (a whole number of at least 1), got '\(value)'")
            }
            olderThan = number
        case "after": after = try Self.timePoint(name, value)
        case "before": before = try Self.timePoint(name, value)
        case "limit":
            guard let number = Int(value), number >= 1 else {
                throw InputError("limit must be a whole number of at least 1, got '\(value)'")
            }
            limit = number
        case "q":
            do throws(RecordSearch.Failure) {
                search = try RecordSearch(value)
            } catch {
                throw InputError("q: \(error)")
            }
        case "status":
            guard let number = Int(value), (100...599).contains(number) else {
                throw InputError("status must be an HTTP status from 100 to 599, such as 200 or 410; got '\(value)'")
            }
            status = number
        default:
            guard let field = Field(rawValue: name)?.termField else { throw Self.unknownFilter(name) }
            switch MatchTerm.check(field, value, named: name) {
            case .success(let checked): set(field, checked)
            case .failure(let problem): throw InputError(problem.message)
            }
        }
    }

    /// Sets the filter of `field` to a value `MatchTerm.check` made canonical.
    private mutating func set(_ field: MatchTerm.Field, _ value: String) {
        switch field {
        case .token: token = value
        case .topic: topic = value
        case .type: pushType = value
        case .apnsID: apnsID = value
        case .reason: reason = value
        case .accepted: accepted = value == "true"
        case .connection: connection = UInt64(value)
        case .device: device = DeviceOutcome.Kind(rawValue: value)
        case .warnings: deviceWarnings = value == "some"
        case .channel: channel = value
        case .operation: operation = ChannelOperation(rawValue: value)
        case .status, .priority, .rule, .deviceRule, .collapseID, .kind, .activity, .event, .text, .after, .before:
            break
        }
    }

    private static func timePoint(_ name: String, _ value: String) throws(InputError) -> TimePoint {
        switch TimePoint.parse(value) {
        case .success(let point): return point
        case .failure(let problem): throw InputError("\(name): \(problem.message)")
        }
    }

    private static func unsigned(_ name: String, _ value: String) throws(InputError) -> UInt64 {
        guard let number = UInt64(value) else {
            throw InputError("\(name) must be a whole number (0 or more), got '\(value)'")
        }
        return number
    }
}
