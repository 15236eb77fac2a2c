/// A file path a scenario document names relative to its own folder (a key's `p8`, a `listen` certificate), where
/// it is written, and the file it resolved to.
///
/// `mock-apns run --record` copies a scenario's text to another file; when that file is in another folder, these
/// are the places to rewrite so that the copy still names the same files.
public struct ScenarioFilePath: Sendable, Hashable {
    /// The field, such as `keys[0].p8`.
    public var field: String
    /// Where the value starts in the document (1-based line and column).
    public var line: Int
    public var column: Int
    /// The path as written (the scalar's value).
    public var written: String
    /// Whether the value was written in quotes (`"…"` or `'…'`) rather than plain.
    public var quoted: Bool
    /// The absolute path it resolved to.
    public var resolved: String
}

extension ScenarioLoader {
    /// The relative file paths a document named, in the order the loader read them.
    final class FilePathLog {
        private(set) var paths: [ScenarioFilePath] = []

        /// Notes `field`'s value `written`, resolved to `resolved`, when it was relative.
        func note(_ field: Field, written: String, resolved: String) {
            guard !written.hasPrefix("/"), let mark = field.node.mark else { return }
            paths.append(
                ScenarioFilePath(
                    field: field.path, line: mark.line, column: mark.column, written: written, quoted: field.isQuoted,
                    resolved: resolved))
        }
    }
}
