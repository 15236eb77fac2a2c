import ArgumentParser

/// A bundle id typed on the command line that goes into a request's path (`channels --bundle`, `push --channel`
/// with `--topic`): checked before anything is sent, so that a space or a `?` is a usage error naming the flag,
/// not a request to another path.
enum BundleIDFlag {
    /// Whether `text` can be a bundle id in a path: not empty, and no whitespace, `/`, `?`, `#` or `%`.
    static func isPlausible(_ text: String) -> Bool {
        !text.isEmpty && !text.contains { $0.isWhitespace || "/?#%".contains($0) }
    }

    /// Throws a usage error for `flag` unless `text` is plausible.
    static func check(_ text: String, flag: String) throws {
        guard !isPlausible(text) else { return }
        throw ValidationError("\(flag) must be an app's bundle id (such as com.example.app), got '\(text)'")
    }
}
