/// Why the registry refused to change an activity.
public enum ActivityChangeRefusal: Error, Sendable, Hashable {
    /// No activity has this id (never started, or cleared by a reset).
    case unknown(id: String)
    /// The activity is not in a state that allows the change (a token rotation of an ended activity).
    case notAllowed(state: ActivityState)
    /// A local start that the app's types refuse: the attributes type is not declared, or a part does not decode.
    case invalid(String)
}
