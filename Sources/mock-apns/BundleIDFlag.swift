import ArgumentParser
import MockAPNs

/// A bundle id typed on the command line that goes into a request's path (`channels --bundle`, `push --channel`
/// with `--topic`): checked before anything is sent, so that a space or a `?` is a usage error naming the flag,
/// not a request to another path.
enum BundleIDFlag {
    /// Throws a usage error for `flag` unless `text` is plausible (`BundleID`).
    static func check(_ text: String, flag: String) throws {
        guard !BundleID.isPlausible(text) else { return }
        throw ValidationError("\(flag) must be an app's bundle id (such as com.example.app), got '\(text)'")
    }
}
