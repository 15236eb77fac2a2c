/// `token: { issuedFrom: <push-to-start token>, start: n }` in an `expect:` match: the update token the simulated
/// phone issued for an activity that a `start` push to that push-to-start token started during the run.
///
/// An issued update token is new every run, so an expectation naming it (as `run --record` once wrote) fails on
/// replay. The push-to-start token it came from is declared in the scenario, and which of that token's starts it
/// was is the same each run: the two name the token across runs. The tokens are looked up in the run's own records
/// (the `started` outcomes and the `updateToken` each issued) when the run is checked, so a scripted rule, which
/// decides answers before any such record exists, cannot use it (the loader refuses it in `rules[].match`).
///
/// ```yaml
/// match: { token: { issuedFrom: db25ba39…3d8809d5d8b4aaf6eea31109209ed97c, start: 1 } }
/// ```
public struct IssuedTokenCondition: Sendable, Hashable {
    /// The push-to-start token the `start` went to, lowercase.
    public var pushToStartToken: String
    /// Only the token of the nth activity that `pushToStartToken` started in the run (1-based); `nil` for any.
    public var start: Int?
    /// The issued tokens the condition names in the run being checked, lowercase: empty until `resolved(_:)`
    /// (in `Journal/`).
    var tokens: Set<String> = []

    /// The update tokens of activities started from `pushToStartToken` (the `start`th one only, if given).
    public init(pushToStartToken: String, start: Int? = nil) {
        self.pushToStartToken = pushToStartToken.lowercased()
        self.start = start
    }

    /// Whether `token`, a request's device token, is one the condition names.
    func passes(_ token: String?) -> Bool {
        guard let token else { return false }
        return tokens.contains(token.lowercased())
    }

    /// The condition as a scenario file writes it: `{ "issuedFrom": "…", "start": 1 }`.
    var scenarioJSON: JSONValue {
        var members: [(String, JSONValue)] = [("issuedFrom", .string(pushToStartToken))]
        if let start { members.append(("start", .number(String(start)))) }
        return .object(members)
    }
}
