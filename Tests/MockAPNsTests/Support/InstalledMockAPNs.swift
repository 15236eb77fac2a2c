import Foundation

/// mock-apns as a user has it after `PREFIX=… scripts/install`, used from a folder outside the checkout.
///
/// The REAL `scripts/install` runs into a temporary prefix; only `swift` (and `strip`) on its `PATH` are stand-ins:
/// the stand-in `swift build` puts the debug `mock-apns` these tests already built (`ServeProcess.executable`) where
/// the release build would leave it, so an install takes a second instead of a six-minute release build. What the
/// script lays out is real: `$PREFIX/bin/mock-apns` (a copy, not a link: the binary finds its shipped files from
/// where it is) and `$PREFIX/share/mock-apns/{scenarios,certs}`. Commands run in `workingDirectory`, an empty
/// folder of the temporary tree, with `$PREFIX/bin` first on `PATH` (so a provider's `mock-apns push` inside
/// `run` is the installed one too) and no `MOCK_APNS_*` variable inherited.
///
/// ```swift
/// try await InstalledMockAPNs.with { installed in
///     let checked = try await installed.run(["check", "taxi-ride"])        // a shipped scenario, by name
///     #expect(checked.output.hasPrefix(installed.shipped("taxi-ride.yaml")))
///     let serve = try await installed.serve(["--scenario", "taxi-ride"])   // a ServeProcess on free ports
///     defer { serve.stop() }
///     // … push with curl or `installed.run(["push", …, "--url", "https://127.0.0.1:\(serve.port)"])` …
/// }
/// ```
///
/// Everything under `root` is removed when `with` returns; a failed install throws with the script's output.
final class InstalledMockAPNs: Sendable {
    /// The install failed: the script's exit status and output.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The temporary folder holding the prefix, the build scratch and the working directory.
    let root: URL
    /// `PREFIX` of the install.
    let prefix: URL
    /// `$PREFIX/bin/mock-apns`.
    let binary: String
    /// `$PREFIX/share/mock-apns`, holding `scenarios/` and `certs/`.
    let share: URL
    /// An empty folder outside the checkout, where commands run.
    let workingDirectory: URL
    /// The environment commands run with: this one without `MOCK_APNS_*` and `GITHUB_STEP_SUMMARY`, `PATH` led by
    /// `$PREFIX/bin` then `/usr/bin:/bin` (no build folder of the checkout), `HOME` inside `root`.
    let environment: [String: String]

    /// Installs into a fresh temporary prefix (on a thread of its own: a build and a copy), runs `body`, removes
    /// everything.
    static func with<T>(_ body: (InstalledMockAPNs) async throws -> T) async throws -> T {
        let installed = try await offPool { try InstalledMockAPNs() }
        defer { installed.remove() }
        return try await body(installed)
    }

    /// Runs the real `scripts/install` with `PREFIX` under a new temporary folder.
    private init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("installed-\(UUID().uuidString)")
        prefix = root.appendingPathComponent("prefix")
        binary = prefix.appendingPathComponent("bin/mock-apns").path
        share = prefix.appendingPathComponent("share/mock-apns")
        workingDirectory = root.appendingPathComponent("work")
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("MOCK_APNS_") && $0.key != "GITHUB_STEP_SUMMARY"
        }
        environment["PATH"] = prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"
        environment["HOME"] = root.path
        self.environment = environment
        do {
            try FileManager.default.createDirectory(at: workingDirectory, withIntermediateDirectories: true)
            try install()
        } catch {
            remove()
            throw error
        }
    }

    /// The stand-ins, then the real `scripts/install` into `prefix`.
    private func install() throws {
        let fakeBin = root.appendingPathComponent("fakebin")
        try Self.writeStandIns(in: fakeBin, built: ServeProcess.executable)
        let result = try Self.runInstallBlocking(
            prefix: prefix.path, home: root.path, scratch: root.appendingPathComponent("scratch").path,
            standIns: fakeBin.path)
        guard result.status == 0, FileManager.default.isExecutableFile(atPath: binary) else {
            throw Failure(description: "scripts/install failed (\(result.status)):\n\(result.output)\(result.errors)")
        }
        // The scratch build is the install's, not the user's: only the installed files stay.
        try? FileManager.default.removeItem(at: root.appendingPathComponent("scratch"))
    }

    /// Writes into `folder` a stand-in `swift` whose `swift build … --scratch-path X` leaves `built` as
    /// X/release/mock-apns, where the release build would (a hard link when on the same file system, else a
    /// copy), and a `strip` that does nothing.
    static func writeStandIns(in folder: URL, built: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let swift = """
            #!/bin/sh
            while [ $# -gt 0 ]; do
                if [ "$1" = "--scratch-path" ]; then scratch="$2"; fi
                shift
            done
            mkdir -p "$scratch/release"
            ln -f '\(built)' "$scratch/release/mock-apns" 2>/dev/null || cp '\(built)' "$scratch/release/mock-apns"
            """
        try Data(swift.utf8).write(to: folder.appendingPathComponent("swift"))
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: folder.appendingPathComponent("strip"))
        for tool in ["swift", "strip"] {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: folder.appendingPathComponent(tool).path)
        }
    }

    /// Runs the real `scripts/install` under `env -i`, the stand-ins in `standIns` first on its `PATH`. Blocks: for
    /// code already off the pool.
    static func runInstallBlocking(
        prefix: String, home: String, scratch: String, standIns: String
    ) throws -> (status: Int32, output: String, errors: String) {
        try Subprocess.runBlocking(
            "/usr/bin/env",
            [
                "-i", "PATH=\(standIns):/usr/bin:/bin", "HOME=\(home)", "PREFIX=\(prefix)",
                "MOCK_APNS_SCRATCH=\(scratch)", ScriptErrorTests.script("install"),
            ], timeout: 120)
    }

    /// The path of a shipped scenario file: `shipped("taxi-ride.yaml")`.
    func shipped(_ name: String) -> String {
        share.appendingPathComponent("scenarios").appendingPathComponent(name).path
    }

    /// Runs the installed `mock-apns arguments` to the end in `workingDirectory` (at most `timeout` seconds).
    /// Blocks: for code already off the pool; a test awaits `run`.
    func runBlocking(
        _ arguments: [String], timeout: TimeInterval = 120
    ) throws -> (status: Int32, output: String, errors: String) {
        try Subprocess.runBlocking(binary, arguments, in: workingDirectory, environment: environment, timeout: timeout)
    }

    /// `runBlocking` on a thread of its own, awaited (see `offPool`: no test blocks).
    func run(
        _ arguments: [String], timeout: TimeInterval = 120
    ) async throws -> (status: Int32, output: String, errors: String) {
        try await offPool { try self.runBlocking(arguments, timeout: timeout) }
    }

    /// Starts the installed `mock-apns serve arguments` in `workingDirectory` on free ports (`--port 0
    /// --control-port 0` come first; later arguments win), its banner read up to "ready". Stop it when done.
    func serve(_ arguments: [String]) async throws -> ServeProcess {
        try await ServeProcess(
            ["--port", "0", "--control-port", "0", "--log-level", "error"] + arguments, in: workingDirectory,
            executable: binary)
    }

    /// Writes `text` to `name` in `workingDirectory` and returns its path.
    func write(_ text: String, _ name: String) throws -> String {
        let path = workingDirectory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
