/// A Focus the person turned on (phone.md §2, `focus`): which apps and people may still interrupt.
public struct PhoneFocus: Sendable, Hashable {
    /// The Focus's name, for messages (`Sleep`, `Work`).
    public var name: String
    /// The apps whose notifications the Focus lets through.
    public var allowedApps: [String]
    /// Whether the Focus lets Time Sensitive notifications through.
    public var timeSensitive: Bool
    /// The people whose calls and messages the Focus lets through (VoIP callers).
    public var allowedPeople: [String]
    /// The Focus filter's value, compared with a push's `filter-criteria`; `nil`: no filter.
    public var filter: String?

    /// A Focus named `name` that lets Time Sensitive notifications through and nothing else.
    public init(
        name: String, allowedApps: [String] = [], timeSensitive: Bool = true, allowedPeople: [String] = [],
        filter: String? = nil
    ) {
        self.name = name
        self.allowedApps = allowedApps
        self.timeSensitive = timeSensitive
        self.allowedPeople = allowedPeople
        self.filter = filter
    }
}
