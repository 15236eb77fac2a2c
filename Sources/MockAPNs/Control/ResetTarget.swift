/// Which scenario a reset (`POST /v1/reset`, `reset(to:)`) puts back in force.
public enum ResetTarget: String, Sendable, Hashable, CaseIterable {
    /// The scenario the server started with (`serve --scenario`, `run`, the embedded defaults): a scenario loaded
    /// at run time is forgotten. The default, so that a test that loads its own scenario cannot leak it into the next.
    case started
    /// The scenario loaded last with `PUT /v1/scenario` (`loadScenario(yaml:)`), else the one the server started with.
    case loaded

    /// The target a `to=` query parameter names; a `MockAPNsControlError` (400) listing the targets for another.
    static func parse(_ text: String) throws -> ResetTarget {
        guard let target = ResetTarget(rawValue: text) else {
            let names = allCases.map(\.rawValue)
            throw MockAPNsControlError.badRequest(
                "to must be \(names.joined(separator: " or ")), got '\(text)'"
                    + NameSuggestion.hint(for: text, among: names))
        }
        return target
    }
}
