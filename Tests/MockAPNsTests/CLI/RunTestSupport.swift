import Foundation

/// `mock-apns run` and `verify` as a CI job runs them: a process with `mock-apns` on `PATH`, in a folder of its own.
enum RunTestSupport {
    /// A fresh temporary folder for one test's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("run-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// This environment with the built `mock-apns` first on `PATH`, no `MOCK_APNS_*` or `GITHUB_STEP_SUMMARY`
    /// inherited, and `extra` added.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("MOCK_APNS_") && $0.key != "GITHUB_STEP_SUMMARY"
        }
        let binFolder = URL(fileURLWithPath: CLITests.executable).deletingLastPathComponent().path
        environment["PATH"] = binFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment.merging(extra) { $1 }
    }

    /// Runs `mock-apns arguments` to the end from the package root (at most `timeout` seconds). Blocks: for code
    /// already off the pool; a test awaits `mockAPNs`.
    static func mockAPNsBlocking(
        _ arguments: [String], environment extra: [String: String] = [:], timeout: TimeInterval = 120
    ) throws -> (status: Int32, output: String, errors: String) {
        try Subprocess.runBlocking(
            CLITests.executable, arguments, in: AuthTestFiles.packageRoot, environment: environment(extra),
            timeout: timeout)
    }

    /// `mock-apns run SCENARIO -- aioapns_provider.py ARGUMENTS`: the scenario `text` written to a fresh folder
    /// (removed after), with the real Python provider of `Tests/clients/aioapns_provider.py` (in `.venv-clients/`).
    /// Blocks: for code already off the pool.
    static func runAioapnsProviderBlocking(
        scenario text: String, _ providerArguments: [String]
    ) throws -> (status: Int32, output: String, errors: String) {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try write(text, "scenario.yaml", in: folder)
        let provider = [
            ThirdPartyClients.venvPython.path,
            AuthTestFiles.packageRoot.appendingPathComponent("Tests/clients/aioapns_provider.py").path,
        ]
        return try mockAPNsBlocking(["run", scenario, "--"] + provider + providerArguments)
    }

    /// `mockAPNsBlocking` on a thread of its own, awaited (see `offPool`: no test blocks).
    static func mockAPNs(
        _ arguments: [String], environment extra: [String: String] = [:], timeout: TimeInterval = 120
    ) async throws -> (status: Int32, output: String, errors: String) {
        try await offPool { try mockAPNsBlocking(arguments, environment: extra, timeout: timeout) }
    }

    /// `runAioapnsProviderBlocking` on a thread of its own, awaited.
    static func runAioapnsProvider(
        scenario text: String, _ providerArguments: [String]
    ) async throws -> (status: Int32, output: String, errors: String) {
        try await offPool { try runAioapnsProviderBlocking(scenario: text, providerArguments) }
    }

    /// Writes `text` to `name` in `folder` and returns its path.
    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The `NAME=value` lines of an `env` dump.
    static func variables(_ dump: String) -> [String: String] {
        var variables: [String: String] = [:]
        for line in dump.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            variables[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return variables
    }

    /// The records of a JSON-lines journal, as objects.
    static func journal(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A device token the default world accepts.
    static let device = String(repeating: "0123456789abcdef", count: 4)
}
