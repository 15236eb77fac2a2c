/// A text a message quotes that a user typed (an id, a bundle id): its first `limit` characters and `…` when
/// longer, so that a mistake the size of a file does not fill an answer.
enum Excerpt {
    /// How many characters a message quotes by default.
    static let limit = 64

    /// `text`, cut to `limit` characters with `…` when longer.
    static func of(_ text: String, limit: Int = limit) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
