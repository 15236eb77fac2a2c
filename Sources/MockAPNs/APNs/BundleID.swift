/// What the mock takes as an app's bundle id wherever one is typed: a scenario's `apps`, the control API's phone
/// routes, the CLI's `--bundle` and `push --channel --topic`. One definition, so that each refuses the same texts.
///
/// Apple's form is reverse-DNS (`com.example.app`); the mock does not insist on it, only on what would break a path
/// or a listing: not empty, at most `maximumLength` bytes, no whitespace, `/`, `?`, `#` or `%`.
public enum BundleID {
    /// The longest bundle id taken, in UTF-8 bytes (Apple publishes none; its ids are far shorter).
    public static let maximumLength = 255

    /// Whether `text` can be a bundle id.
    public static func isPlausible(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumLength && !text.contains { $0.isWhitespace || "/?#%".contains($0) }
    }
}
