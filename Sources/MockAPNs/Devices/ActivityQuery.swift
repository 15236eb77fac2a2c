/// Which activities to list, wait for or follow: every filter given must hold (`GET /v1/activities?type=…`).
public struct ActivityQuery: FilterQuery, Hashable {
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

    /// The query parameter names the control API knows, in the order `parameters` writes them.
    public static let parameterNames = ["state", "type", "token"]

    /// The query as `name=value` pairs (what the HTTP client sends).
    public var parameters: [(name: String, value: String)] {
        var items = [(name: String, value: String)]()
        if let state { items.append(("state", state.rawValue)) }
        if let type { items.append(("type", type)) }
        if let token { items.append(("token", token)) }
        return items
    }

    /// A query with no filter: every activity.
    public init() { self.init(state: nil) }

    /// What a query with no filter matches, for messages.
    public static let everything = "any activity"

    /// Sets the filter `name` from its text, or throws an `InputError` that names it (`FilterQuery.parse` calls it).
    public mutating func setFilter(_ name: String, to value: String) throws(InputError) {
        switch name {
        case "state":
            guard let state = ActivityState(rawValue: value) else {
                let names = ActivityState.allCases.map(\.rawValue).joined(separator: ", ")
                throw InputError("state must be one of: \(names); got '\(value)'")
            }
            self.state = state
        case "type":
            type = value
        case "token":
            guard let token = DeviceToken(value) else {
                throw InputError(
                    "token must be an even number of hex digits (an update or push-to-start token), got '\(value)'")
            }
            self.token = token.hex
        default:
            throw Self.unknownFilter(name)
        }
    }
}
