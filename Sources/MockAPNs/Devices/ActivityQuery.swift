/// Which activities to list, wait for or follow: every filter given must hold (`GET /v1/activities?type=…`).
public struct ActivityQuery: Sendable, Hashable {
    /// Only activities in this state at the mock's clock.
    public var state: ActivityState?
    /// Only activities of this attributes type (`mpushTaxiAttributes`).
    public var type: String?
    /// Only the activity with this update token, or those started from this push-to-start token (lower case).
    public var token: String?

    /// A query; no filter matches every activity.
    public init(state: ActivityState? = nil, type: String? = nil, token: String? = nil) {
        self.state = state
        self.type = type
        self.token = token?.lowercased()
    }

    /// Whether `snapshot` passes every filter.
    public func matches(_ snapshot: ActivitySnapshot) -> Bool {
        if let state, snapshot.state != state { return false }
        if let type, snapshot.activity.attributesType != type { return false }
        if let token, snapshot.activity.updateToken != token, snapshot.activity.pushToStartToken != token {
            return false
        }
        return true
    }

    /// The query parameter names the control API knows.
    public static let parameterNames = ["state", "type", "token"]

    /// The query as `name=value` pairs (what the HTTP client sends).
    public var parameters: [(name: String, value: String)] {
        var items = [(name: String, value: String)]()
        if let state { items.append(("state", state.rawValue)) }
        if let type { items.append(("type", type)) }
        if let token { items.append(("token", token)) }
        return items
    }

    /// `state=active type=…`, or `any activity`: for messages.
    public var summary: String {
        parameters.isEmpty ? "any activity" : parameters.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }

    /// Reads a query from `name=value` parameters, refusing unknown names, repeats and bad values with a 400 that
    /// names the parameter.
    ///
    /// - Parameter extra: names the caller handles itself (`timeout`); their values are returned, not read.
    public static func parse(
        _ parameters: [(name: String, value: String)], extra: [String] = []
    ) throws(MockAPNsControlError) -> (query: ActivityQuery, extra: [String: String]) {
        var query = ActivityQuery()
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
            guard !value.isEmpty || !parameterNames.contains(name) else {
                throw .badRequest("the filter '\(name)' is empty; give it a value")
            }
            switch name {
            case "state":
                guard let state = ActivityState(rawValue: value) else {
                    let names = ActivityState.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .badRequest("state must be one of: \(names); got '\(value)'")
                }
                query.state = state
            case "type":
                query.type = value
            case "token":
                guard let token = DeviceToken(value) else {
                    throw .badRequest(
                        "token must be an even number of hex digits (an update or push-to-start token), got '\(value)'")
                }
                query.token = token.hex
            default:
                let names = (parameterNames + extra).joined(separator: ", ")
                throw .badRequest("unknown filter '\(name)'; the filters are: \(names)")
            }
        }
        return (query, extras)
    }
}
