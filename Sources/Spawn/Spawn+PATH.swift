#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Spawn {
    /// Why `executable(_:path:)` found no file to start.
    package enum LookupFailure: Error, Equatable {
        /// The name has a `/`, and that file is not executable.
        case notExecutable
        /// No `PATH` folder has an executable file of that name.
        case notFound
    }

    /// The folders searched when there is no `PATH`, as a shell's default.
    package static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// `name` as a file to execute, as a shell finds it: itself when it has a `/`, else the first `path` folder
    /// (`PATH`'s form: folders between colons, an empty one meaning `.`) with an executable regular file of that
    /// name; `defaultPath` when `path` is `nil`.
    package static func executable(_ name: String, path: String?) throws(LookupFailure) -> String {
        if name.contains("/") {
            guard access(name, X_OK) == 0 else { throw .notExecutable }
            return name
        }
        let folders = (path ?? defaultPath).split(separator: ":", omittingEmptySubsequences: false)
        for folder in folders {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw .notFound
    }
}
