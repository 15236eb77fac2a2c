/// Filters read from, and written as, the control API's `name=value` query parameters (`JournalQuery` for
/// `/v1/requests`, `ActivityQuery` for `/v1/activities`): one parser refuses repeats, unknown names and empty
/// values the same way for both, and a conformer says only what its own filters are.
public protocol FilterQuery: Sendable {
    /// A query with no filter: it matches everything.
    init()
    /// The parameter names the query knows, in the order `parameters` writes them.
    static var parameterNames: [String] { get }
    /// What a query with no filter matches, for messages: `any request`.
    static var everything: String { get }
    /// The query as `name=value` pairs, in `parameterNames` order (what the HTTP client sends).
    var parameters: [(name: String, value: String)] { get }
    /// Sets the filter `name` from its non-empty text, or throws an `InputError` that names it (`unknownFilter` for
    /// a name that is not one of `parameterNames`).
    mutating func setFilter(_ name: String, to value: String) throws(InputError)
}

extension FilterQuery {
    /// `token=… topic=…`, or `everything` for a query with no filter: for messages.
    public var summary: String {
        let items = parameters
        return items.isEmpty ? Self.everything : items.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }

    /// Reads a query from `name=value` parameters, refusing unknown names, repeats and bad values with an
    /// `InputError` that names the parameter.
    ///
    /// - Parameters:
    ///   - parameters: the decoded query parameters, in order.
    ///   - extra: names the caller handles itself (`count`, `timeout`); their values are returned, not read.
    /// - Returns: the query and the values of the `extra` parameters present.
    public static func parse(
        _ parameters: [(name: String, value: String)], extra: [String] = []
    ) throws(InputError) -> (query: Self, extra: [String: String]) {
        var query = Self()
        var extras: [String: String] = [:]
        var seen: Set<String> = []
        for (name, value) in parameters {
            guard seen.insert(name).inserted else {
                throw InputError("the parameter '\(name)' is given twice; give it once")
            }
            if extra.contains(name) {
                extras[name] = value
                continue
            }
            guard parameterNames.contains(name) else { throw unknownFilter(name, extra: extra) }
            guard !value.isEmpty else { throw InputError("the filter '\(name)' is empty; give it a value") }
            try query.setFilter(name, to: value)
        }
        return (query, extras)
    }

    /// The error for a parameter that is not a filter of this query, listing the filters (and `extra` names).
    public static func unknownFilter(_ name: String, extra: [String] = []) -> InputError {
        InputError("unknown filter '\(name)'; the filters are: \((parameterNames + extra).joined(separator: ", "))")
    }
}
