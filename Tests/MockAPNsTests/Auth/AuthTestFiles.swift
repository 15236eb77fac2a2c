import Foundation

/// Finds the repository's `certs/` folder from this source file, so tests never depend on an absolute path
/// or on the directory `swift test` was started in.
enum AuthTestFiles {
    /// The package root: the nearest folder above this file that holds a `Package.swift`.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        preconditionFailure("no Package.swift above \(#filePath)")
    }()

    /// The contents of `certs/<name>`, the test keys and certificates that `certs/generate.sh` makes.
    static func certificateFile(_ name: String) throws -> String {
        try String(
            contentsOf: packageRoot.appendingPathComponent("certs").appendingPathComponent(name),
            encoding: .utf8
        )
    }
}
