import Foundation
import Testing
@testable import MockAPNs

/// The `mock-apns` executable, run as a user runs it.
@Suite("mock-apns command line", .serialized)
struct CLITests {
    /// The executable `swift build` put next to the test bundle.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("mock-apns").path

    /// Runs the built `mock-apns arguments` to the end from the package root, awaited on a thread of its own.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        try await Subprocess.run(executable, arguments, in: AuthTestFiles.packageRoot)
    }

    @Test("mints a token the server accepts as verified")
    func token() async throws {
        let result = try await Self.run(["token"])
        #expect(result.status == 0)
        let jwt = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let parsed = try ProviderToken.parse(jwt)
        #expect(parsed.keyID == "TESTKEY001")
        #expect(parsed.issuer == "TESTTEAM01")
        let der = try await Self.run(
            ["token", "--p8", "certs/AuthKey_OTHERKEY01.p8", "--team", "OTHERTEAM1", "--key-id", "OTHERKEY01", "--der"])
        #expect(try ProviderToken.parse(der.output.trimmingCharacters(in: .whitespacesAndNewlines)).issuer == "OTHERTEAM1")
    }

    @Test("refuses bad flags with a usage error", arguments: [
        ["serve", "--port", "70000"], ["serve", "--environment", "staging"], ["serve", "--cert", "x.pem"],
        ["serve", "--bogus"], ["token", "--p8", "x.p8"], ["serve", "--log-level", "loud"],
        ["serve", "--port", "99999999999999999999"], ["serve", "--control-port", "-1"],
        ["serve", "--journal-capacity", "0"], ["serve", "--journal-capacity", "99999999999"],
        ["serve", "--journal-max-bytes", "1KiB"], ["serve", "--journal-max-bytes", "lots"],
        ["serve", "--journal-max-bytes", "99999999999999999999GiB"], ["serve", "--ready-json=yes"],
        ["serve", "--exit-on-stdin-close", "now"], ["reset", "--to", "everything"],
    ])
    func badFlags(arguments: [String]) async throws {
        let result = try await Self.run(arguments)
        #expect(result.status != 0)
        #expect(result.errors.contains("Error:"), "\(result.errors)")
        #expect(result.errors.contains("Usage:") || result.errors.contains("Help:"), "\(result.errors)")
    }

    @Test("--journal-max-bytes out of range names the flag, the range and the value")
    func journalMaxBytesMessage() async throws {
        let result = try await Self.run(["serve", "--journal-max-bytes", "1KiB"])
        #expect(result.status != 0)
        #expect(result.errors.contains("--journal-max-bytes"), "\(result.errors)")
        #expect(result.errors.contains("must be between 64KiB and 64GiB, got '1KiB'"), "\(result.errors)")
    }

    @Test("check refuses a rule delay beyond a day with file:line:column and the range, and does not crash")
    func checkHugeDelay() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("delay-\(UUID().uuidString).yaml").path
        try "rules:\n  - respond: { status: 200 }\n    delay: 99999999999999999999999m\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await Self.run(["check", path])
        #expect(result.status == 1)
        #expect(result.errors.contains("\(path):3:12: rules[0].delay: must be at most 24h"), "\(result.errors)")
    }

    @Test("checks a good scenario file and names file, line and field of a bad one")
    func check() async throws {
        let good = try await Self.run(["check", "scenarios/strict.yaml"])
        #expect(good.status == 0)
        #expect(good.output.contains("OK"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).yaml").path
        try "environment: sandbox\ndevices:\n  - token: abc\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bad = try await Self.run(["check", path])
        #expect(bad.status == 1)
        #expect(bad.errors.contains("\(path):3:"), "\(bad.errors)")
        #expect(bad.errors.contains("devices[0].token"), "\(bad.errors)")
    }

    @Test("refuses to serve a bad scenario file, naming the problem")
    func serveBadScenario() async throws {
        let result = try await Self.run(["serve", "--scenario", "/nonexistent/world.yaml"])
        #expect(result.status == 1)
        #expect(result.errors.contains("/nonexistent/world.yaml"), "\(result.errors)")
    }

    @Test("serves, prints where and what to trust, answers the printed curl, and stops cleanly on SIGTERM")
    func serveAndStop() async throws {
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["serve", "--port", "0", "--journal", journal, "--log-level", "warning"]
        process.currentDirectoryURL = AuthTestFiles.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let banner = await ServeProcess.readBanner(out.fileHandleForReading)
        #expect(banner.contains("environment sandbox"))
        #expect(banner.contains("trust this CA           \(Curl.caFile)\n"), "\(banner)")
        let result = try await Self.curlThePrintedPush(banner)
        #expect(result.1 == "200", "\(result.2)")

        process.terminate()  // SIGTERM
        await process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
    }

    @Test("--journal /dev/stdout (a pipe, which cannot seek) writes each record as a JSON line after the banner")
    func journalToStandardOutput() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["serve", "--port", "0", "--control-port", "0", "--journal", "/dev/stdout", "--log-level", "warning"]
        process.currentDirectoryURL = AuthTestFiles.packageRoot
        let out = Pipe()
        let errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let banner = await ServeProcess.readBanner(out.fileHandleForReading)
        try #require(banner.contains("\nready"), "\(banner)")
        await #expect(try Self.curlThePrintedPush(banner).1 == "200")
        let output = await out.fileHandleForReading.read(until: #""sequence":1"#, after: banner, timeout: .seconds(10))
        let line = try #require(output.split(separator: "\n").first { $0.contains(#""sequence":1"#) }, "\(output)")
        #expect(try JSONParser.parse(String(line))["response"]?["status"] == 200)
        process.terminate()
        await process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        await #expect(
            !String(decoding: errors.fileHandleForReading.readToEndOfFile(), as: UTF8.self).contains("Fatal error"))
    }

    /// Sends the curl command `serve`'s banner prints (its URL and token) and returns curl's status, HTTP code and
    /// errors.
    static func curlThePrintedPush(_ banner: String) async throws -> (Int32, String, String) {
        let lines = banner.split(separator: "\n")
        let urlLine = try #require(lines.first { $0.contains("https://127.0.0.1:") && $0.contains("/3/device/") })
        let url = urlLine.trimmingCharacters(in: .whitespaces)
        let tokenLine = try #require(lines.first { $0.contains("authorization: bearer ") })
        let jwt = tokenLine.components(separatedBy: "bearer ")[1].prefix { $0 != "'" }
        return try await Curl.run([
            "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--http2", "--cacert", Curl.caFile,
            "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert", "-H", "authorization: bearer \(jwt)",
            "-d", #"{"aps":{"alert":"hi"}}"#, url,
        ])
    }
}
