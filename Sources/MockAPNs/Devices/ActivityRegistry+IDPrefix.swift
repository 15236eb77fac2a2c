/// Activities named by a prefix of their id, as `mock-apns activities` prints them (`0c6f1a2b`).
extension ActivityRegistry {
    /// What an activity id, or the start of one, names.
    public enum IDMatch: Sendable, Hashable {
        /// The one activity with this id (the whole id, as stored).
        case found(String)
        /// No activity's id is this or starts with it.
        case none
        /// Several activities' ids start with it: their ids, in start order.
        case ambiguous([String])
        /// Shorter than `minimumIDPrefix` and not a whole id.
        case tooShort
    }

    /// The fewest characters of an id a lookup takes: four hex digits already tell apart thousands of activities
    /// most of the time, and fewer would match most of them.
    public static let minimumIDPrefix = 4

    /// The activity whose id is `text` or starts with it, ignoring case (ids are upper-case UUIDs; the CLI prints
    /// the first 8 characters in lower case).
    public func match(id text: String) -> IDMatch {
        store.withLockedValue { store in
            if store.activities[text] != nil { return .found(text) }
            guard text.count >= Self.minimumIDPrefix else { return .tooShort }
            let prefix = text.uppercased()
            let matching = store.order.filter { $0.uppercased().hasPrefix(prefix) }
            switch matching.count {
            case 0: return .none
            case 1: return .found(matching[0])
            default: return .ambiguous(matching)
            }
        }
    }
}
