import Foundation
import Testing

/// `scripts/install` and `scripts/package` refuse what they cannot do with a sentence, before building anything.
@Suite("install and package scripts")
struct ScriptErrorTests {
    static func script(_ name: String) -> String {
        AuthTestFiles.packageRoot.appendingPathComponent("scripts/\(name)").path
    }

    /// The folder of the `swift` that runs these tests, so a script can find it under `env -i`.
    static var swiftFolder: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").first {
            FileManager.default.isExecutableFile(atPath: "\($0)/swift")
        }.map(String.init) ?? "/usr/bin"
    }

    @Test("install says where to get Swift when swift is not on PATH")
    func installWithoutSwift() async throws {
        let result = try await Subprocess.run(
            "/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "HOME=/tmp", Self.script("install")])
        #expect(result.status == 1)
        #expect(result.errors.contains("swift is not on PATH; install Swift 6 first"), "\(result.errors)")
    }

    @Test("install names a folder it cannot write to and the PREFIX that changes it")
    func installUnwritable() async throws {
        let result = try await Subprocess.run(
            "/usr/bin/env",
            ["-i", "PATH=\(Self.swiftFolder):/usr/bin:/bin", "PREFIX=/proc/mock-apns", Self.script("install")])
        #expect(result.status == 1)
        #expect(result.errors.contains("cannot write to /proc/mock-apns/bin; choose another folder with PREFIX="))
        #expect(!result.errors.contains("building"), "it must refuse before building: \(result.errors)")
    }

    @Test("install and package refuse unknown options with the known ones", arguments: [
        ("install", ["--bogus"], "unknown option '--bogus' (known: --build-only, --help)"),
        ("package", ["--bogus"], "unknown option '--bogus' (known: --output DIR, --help)"),
        ("package", ["--output"], "--output needs a folder"),
    ])
    func unknownOptions(script: String, arguments: [String], message: String) async throws {
        let result = try await Subprocess.run(Self.script(script), arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains(message), "\(result.errors)")
    }
}
