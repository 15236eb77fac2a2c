import Foundation
import Testing

/// Runs documented snippets against a real `mock-apns serve` started for each one.
///
/// The server runs from the package root on free ports with the embedded default world. Before the snippet,
/// the device `TOKEN` (`0123456789abcdef` × 4) is added for `com.example.app` and two pushes are sent to it, so
/// the reading examples have something to read. In the snippet's text `2197`, `2195` and `2190` become the server's
/// APNs, channel management and control ports; `MOCK_APNS_CONTROL_URL` points the CLI at it, `mock-apns` is the
/// build under test and `python3` the clients venv's.
/// Shell snippets run with `set -euo pipefail` and `curl --fail-with-body`; Python snippets run with the
/// clients venv, where a `requests` answer of 400 or more fails the snippet. A refused call fails the block.
enum DocSnippetRunner {
    enum Interpreter {
        case bash
        case python
    }

    static let token = String(repeating: "0123456789abcdef", count: 4)
    static let executableFolder = URL(fileURLWithPath: CLITests.executable).deletingLastPathComponent().path

    private static let bashPrelude = """
        set -euo pipefail
        curl() { command curl --fail-with-body "$@"; }

        """

    private static let pythonPrelude = """
        import requests as _doc_test_requests
        _doc_test_request = _doc_test_requests.Session.request
        def _doc_test_checked(self, method, url, *arguments, **options):
            answer = _doc_test_request(self, method, url, *arguments, **options)
            if answer.status_code >= 400:
                raise SystemExit(f"doc-test: {method} {url} answered {answer.status_code}: {answer.text[:800]}")
            return answer
        _doc_test_requests.Session.request = _doc_test_checked

        """

    /// Runs a `sh` or `python` block (after its page's setup blocks) and fails the test when it fails.
    static func runScript(_ snippet: DocSnippet, interpreter: Interpreter) async throws {
        let server = try await MockServerProcess.start()
        do {
            try await runScript(snippet, interpreter: interpreter, server: server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private static func runScript(
        _ snippet: DocSnippet, interpreter: Interpreter, server: MockServerProcess
    ) async throws {
        let fixture = """
            set -euo pipefail
            jwt="$(mock-apns token)"
            command curl -sS --fail-with-body -o /dev/null -X POST "http://127.0.0.1:\(server.controlPort)/v1/devices" \
                -d '{"token": "\(token)", "app": "com.example.app"}'
            for i in 1 2; do
                command curl -sS --fail-with-body -o /dev/null --http2 --cacert certs/ca.pem \
                    -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' -H "authorization: bearer $jwt" \
                    -d '{"aps":{"alert":{"title":"Hello","body":"from mock-apns"}}}' \
                    "https://127.0.0.1:\(server.apnsPort)/3/device/\(token)"
            done

            """
        let prepared = try await run(fixture, interpreter: .bash, server: server, timeout: 30)
        try #require(prepared.status == 0, "the fixture failed:\n\(prepared.output)")

        // In one pass: replaced one after another, a port already put in could hold the next placeholder (control
        // port 42195 became 4 and then the channel port, 440747, in one CI run).
        let body = Self.substitutingPorts(
            in: snippet.setup + snippet.text,
            ["2197": server.apnsPort, "2190": server.controlPort, "2195": server.channelsPort])
        let script = (interpreter == .bash ? bashPrelude : pythonPrelude) + body
        if snippet.directive == .background {
            let result = try await run(script, interpreter: interpreter, server: server, timeout: 3)
            #expect(
                result.timedOut || result.status == 0,
                "\(snippet.testDescription) failed (exit \(result.status)):\n\(script)\n--- output:\n\(result.output)"
            )
        } else {
            let result = try await run(script, interpreter: interpreter, server: server, timeout: 60)
            let failure = result.timedOut ? "ran over 60 s (mark it 'background'?)" : "failed (exit \(result.status))"
            #expect(
                !result.timedOut && result.status == 0,
                """
                \(snippet.testDescription) \(failure):
                \(body)--- output:
                \(result.output)
                """
            )
        }
    }

    /// Checks a `yaml` block with `mock-apns check`, as a file in a `scenarios/` folder next to `certs/`.
    static func checkScenario(_ snippet: DocSnippet) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doc-yaml-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenarios = folder.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("certs"),
            withDestinationURL: AuthTestFiles.packageRoot.appendingPathComponent("certs")
        )
        let file = scenarios.appendingPathComponent("snippet.yaml")
        try snippet.text.write(to: file, atomically: true, encoding: .utf8)
        let path = file.path
        let result = try await Subprocess.run(CLITests.executable, ["check", path], in: folder)
        #expect(
            result.status == 0,
            "\(snippet.testDescription) does not pass mock-apns check:\n\(snippet.text)\(result.output)\(result.errors)"
        )
    }

    /// How a snippet's script ended: its exit status, whether it ran past the timeout, and what it printed.
    struct Exit {
        var status: Int32
        var timedOut: Bool
        var output: String
    }

    /// Runs `script` from the package root on a thread outside the cooperative pool, stopping it and its
    /// children after `timeout`.
    static func run(
        _ script: String, interpreter: Interpreter, server: MockServerProcess, timeout: TimeInterval
    ) async throws -> Exit {
        try await offPool { try runBlocking(script, interpreter: interpreter, server: server, timeout: timeout) }
    }

    private static func runBlocking(
        _ script: String, interpreter: Interpreter, server: MockServerProcess, timeout: TimeInterval
    ) throws -> Exit {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doc-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scriptFile = folder.appendingPathComponent(interpreter == .bash ? "snippet.sh" : "snippet.py")
        let outputFile = folder.appendingPathComponent("output")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        defer { try? output.close() }

        let process = ChildProcess()
        // ChildProcess starts the child as the leader of its own process group, so killing the group stops the
        // curl, server or `--follow` the script started too.
        let program = interpreter == .bash ? "/bin/bash" : ThirdPartyClients.venvPython.path
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [scriptFile.path]
        process.currentDirectoryURL = AuthTestFiles.packageRoot
        var environment = ProcessInfo.processInfo.environment
        let venv = ThirdPartyClients.venvPython.deletingLastPathComponent().path
        environment["PATH"] = executableFolder + ":" + venv + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["MOCK_APNS_CONTROL_URL"] = "http://127.0.0.1:\(server.controlPort)"
        environment["MOCK_APNS_CONTROL_TOKEN"] = nil
        environment["NO_COLOR"] = "1"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment["PYTHONUNBUFFERED"] = "1"
        for name in ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
            environment[name] = nil
        }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning
        kill(-process.processIdentifier, SIGTERM)
        let grace = Date().addingTimeInterval(2)
        while process.isRunning, Date() < grace { usleep(20_000) }
        kill(-process.processIdentifier, SIGKILL)
        process.waitUntilExitBlocking()
        let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        return Exit(status: process.terminationStatus, timedOut: timedOut, output: text)
    }

    /// `text` with each placeholder of `ports` (a documented port number) replaced by its port, in one pass.
    static func substitutingPorts(in text: String, _ ports: [String: Int]) -> String {
        var out = ""
        var rest = Substring(text)
        while let next = rest.first {
            if let (placeholder, port) = ports.first(where: { rest.hasPrefix($0.key) }) {
                out += String(port)
                rest = rest.dropFirst(placeholder.count)
            } else {
                out.append(next)
                rest = rest.dropFirst()
            }
        }
        return out
    }
}

/// `mock-apns serve --port 0` as a child process, from the package root; the ports are read from its banner.
final class MockServerProcess: @unchecked Sendable {
    let process: ChildProcess
    let apnsPort: Int
    let controlPort: Int
    /// The broadcast channel management port.
    let channelsPort: Int

    private init(process: ChildProcess, apnsPort: Int, controlPort: Int, channelsPort: Int) {
        self.process = process
        self.apnsPort = apnsPort
        self.controlPort = controlPort
        self.channelsPort = channelsPort
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable serve --port 0` in `directory` and waits (at most 30 s) for its `ready` line;
    /// `environment` replaces the inherited one when given. Awaited on a thread of its own (see `offPool`).
    static func start(
        executable: String = CLITests.executable, in directory: URL = AuthTestFiles.packageRoot,
        environment: [String: String]? = nil
    ) async throws -> MockServerProcess {
        try await offPool { try startBlocking(executable: executable, in: directory, environment: environment) }
    }

    /// `start`, blocking: for code already off the pool.
    private static func startBlocking(
        executable: String, in directory: URL, environment: [String: String]?
    ) throws -> MockServerProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--port", "0", "--log-level", "warning"]
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let banner = BannerReader(out.fileHandleForReading)
        guard let text = banner.wait(for: "\nready", timeout: 30) else {
            process.terminate()
            process.waitUntilExitBlocking()
            throw Failure(description: "mock-apns serve printed no 'ready' within 30 s:\n\(banner.text)")
        }
        func port(after prefix: String) -> Int? {
            guard let range = text.range(of: prefix) else { return nil }
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        guard let apns = port(after: "https://127.0.0.1:"), let control = port(after: "http://127.0.0.1:"),
            let channels = port(after: "(HTTP/2, TLS)  https://127.0.0.1:")
        else {
            process.terminate()
            process.waitUntilExitBlocking()
            throw Failure(description: "no APNs or control URL in the banner:\n\(text)")
        }
        return MockServerProcess(process: process, apnsPort: apns, controlPort: control, channelsPort: channels)
    }

    /// Stops the server with SIGTERM and waits for it. Blocks: for code already off the pool.
    func stopBlocking() {
        if process.isRunning { process.terminate() }
        process.waitUntilExitBlocking()
    }

    /// `stopBlocking()` on a thread of its own, awaited: a graceful shutdown may take seconds, and a blocked pool
    /// thread would hold up every other test.
    func stop() async {
        await offPool { self.stopBlocking() }
    }

    /// Collects a pipe's text on its own thread.
    private final class BannerReader: @unchecked Sendable {
        private let lock = NSLock()
        private var collected = ""

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.nextChunk()
                    if chunk.isEmpty { break }
                    lock.withLock { collected += String(decoding: chunk, as: UTF8.self) }
                }
            }
        }

        var text: String { lock.withLock { collected } }

        func wait(for marker: String, timeout: TimeInterval) -> String? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let current = text
                if current.contains(marker) { return current }
                usleep(20_000)
            }
            return nil
        }
    }
}
