import Foundation
import Testing

@testable import MockAPNs

/// SIGTERM to a real `mock-apns serve` with streams held by a `no-response` rule and a long delay.
@Suite("Shutdown", .serialized)
struct ShutdownTests {
    static let heldToken = String(repeating: "aa", count: 32)
    static let slowToken = String(repeating: "bb", count: 32)

    @Test("answers a delayed stream and resets a held one when the grace period ends, and says stopped once")
    func heldStreams() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shutdown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("held.yaml").path
        try """
        rules:
          - name: held
            match: { token: \(Self.heldToken) }
            fault: no-response
          - name: slow
            match: { token: \(Self.slowToken) }
            respond: { status: 200, delay: 1m }
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let journal = directory.appendingPathComponent("journal.jsonl").path
        let errors = directory.appendingPathComponent("stderr.txt")
        try #require(FileManager.default.createFile(atPath: errors.path, contents: nil))

        let server = ChildProcess()
        server.executableURL = URL(fileURLWithPath: CLITests.executable)
        server.arguments = ["serve", "--port", "0", "--no-control", "--scenario", scenario, "--journal", journal]
        server.currentDirectoryURL = AuthTestFiles.packageRoot
        let out = Pipe()
        server.standardOutput = out
        server.standardError = try FileHandle(forWritingTo: errors)
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        let banner = await ServeProcess.readBanner(out.fileHandleForReading)
        let urlLine = try #require(banner.split(separator: "\n").first { $0.contains("https://127.0.0.1:") })
        let port = try #require(
            urlLine.components(separatedBy: "https://127.0.0.1:")[1].split(separator: "/").first.flatMap { Int($0) })

        func push(_ token: String) throws -> (ChildProcess, Pipe) {
            let curl = ChildProcess()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.arguments = [
                "curl", "-sS", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_code}", "--http2", "--cacert",
                Curl.caFile, "-H", "apns-topic: com.example.app", "-H", "authorization: bearer \(testProviderToken())",
                "-d", #"{"aps":{"alert":"hi"}}"#, "https://localhost:\(port)/3/device/\(token)",
            ]
            let output = Pipe()
            curl.standardOutput = output
            curl.standardError = output
            try curl.run()
            return (curl, output)
        }
        let (held, heldOutput) = try push(Self.heldToken)
        let (slow, slowOutput) = try push(Self.slowToken)
        try await Task.sleep(for: .seconds(1))

        let stopping = ContinuousClock.now
        server.terminate()  // SIGTERM
        let (_, answeredAfter) = try await offPool(since: stopping) {
            held.waitUntilExitBlocking()
            slow.waitUntilExitBlocking()
        }
        let (_, stoppedAfter) = try await offPool(since: stopping) { server.waitUntilExitBlocking() }

        let heldText = await String(decoding: heldOutput.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
        let slowText = await String(decoding: slowOutput.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
        // The delayed answer goes out when the grace period ends, not a minute later.
        #expect(slow.terminationStatus == 0, "\(slowText)")
        #expect(slowText == "200", "\(slowText)")
        // The held stream is reset (RST_STREAM CANCEL) when the grace period ends: curl gives up on it then, not
        // at its own timeout (28), and with no answer (curl 7.88 reports the reset as exit 18).
        #expect(![0, 28].contains(held.terminationStatus), "curl exit \(held.terminationStatus): \(heldText)")
        #expect(!heldText.contains("200"), "\(heldText)")
        #expect(answeredAfter > .seconds(4) && answeredAfter < .seconds(7), "\(answeredAfter)")
        #expect(stoppedAfter < .seconds(8), "\(stoppedAfter)")
        #expect(server.terminationStatus == 0)

        let log = try String(contentsOf: errors, encoding: .utf8)
        #expect(log.components(separatedBy: "mock-apns stopped").count == 2, "\(log)")
        let records = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        #expect(records.count == 2, "\(records)")
    }
}
