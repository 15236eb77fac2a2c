/// Why the simulated phone did what it did with a push: a stable kebab-case id (`background-force-quit`), with the
/// tag and source of the fact behind it (phone.md §5).
///
/// An open struct rather than an enum, like `APNsReason`: a record written by a newer version, or a rule this
/// version does not know, reads back as a rule with that id. Two rules are the same when their ids are.
public struct DeviceRule: Sendable, Hashable, CustomStringConvertible {
    /// How sure the fact is (phone.md, "Tags").
    public enum Tag: String, Sendable, Hashable, CaseIterable {
        /// Apple documents it.
        case doc
        /// Developers observed it, a vendor documents it, or an Apple engineer said it on the forums.
        case seen
        /// Unknown or conflicting: a setting decides (phone.md §6).
        case open
    }

    /// The id, as records, searches and `expect:` write it.
    public var id: String
    /// How sure the fact is.
    public var tag: Tag
    /// Where the fact comes from, as phone.md cites it (`doc, *Metrics*`, `forums/776933`).
    public var source: String

    /// The rule `id`, from `source` tagged `tag`.
    public init(_ id: String, _ tag: Tag, _ source: String) {
        self.id = id
        self.tag = tag
        self.source = source
    }

    /// The id.
    public var description: String { id }

    /// Whether the two are the same rule: the same id.
    public static func == (lhs: DeviceRule, rhs: DeviceRule) -> Bool { lhs.id == rhs.id }

    /// Hashes the id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The rule this version knows by `id`, or `nil`.
    public static func named(_ id: String) -> DeviceRule? { byID[id] }

    /// The rule `id` as a record holds it: the known one, else one tagged `open` whose source says it is unknown.
    static func read(_ id: String) -> DeviceRule {
        named(id) ?? DeviceRule(id, .open, "not known to this version of mock-apns")
    }

    private static let byID = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    /// The ids, for messages and suggestions.
    public static var ids: [String] { all.map(\.id) }
}
