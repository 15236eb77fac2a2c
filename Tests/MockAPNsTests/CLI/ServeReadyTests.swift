import Foundation
import Testing

@testable import MockAPNs

/// `serve --ready-json` and `serve --exit-on-stdin-close`, as a test helper in another language starts the binary:
/// one JSON line on standard output, the banner on standard error, and no server left when the parent goes.
@Suite("serve for test helpers", .serialized)
struct ServeReadyTests {
    /// A started `mock-apns serve --port 0 --ready-json arguments` with its standard input a pipe we hold.
    struct Started {
        let process: ChildProcess
        let input: Pipe
        let output: Pipe
        let errorFile: URL
        /// The first line of standard output.
        let line: String
        var json: JSONValue? { try? JSONParser.parse(line) }
        var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

        func stop() {
            process.stop(grace: .seconds(5))
            try? FileManager.default.removeItem(at: errorFile)
        }
    }

    static func start(_ arguments: [String]) async throws -> Started {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = ["serve", "--port", "0", "--ready-json", "--log-level", "error"] + arguments
        process.currentDirectoryURL = AuthTestFiles.packageRoot
        let input = Pipe()
        let output = Pipe()
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID()).err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let line = await output.fileHandleForReading.read(until: "\n", timeout: .seconds(30))
        return Started(
            process: process, input: input, output: output, errorFile: errorFile,
            line: line.trimmingCharacters(in: .newlines))
    }

    @Test("--ready-json prints one JSON line with every field, the banner goes to standard error, /v1/info agrees")
    func readyLine() async throws {
        let started = try await Self.start([])
        defer { started.stop() }
        let json = try #require(started.json, "not JSON: \(started.line)\n\(started.errors)")
        let keys = [
            "apnsURL", "channelsURL", "controlURL", "caFile", "keyFile", "keyID", "teamID", "pid", "version",
            "environment",
        ]
        guard case .object(let members) = json else { Issue.record("not an object: \(started.line)"); return }
        #expect(members.map(\.0) == keys)
        #expect(json["apnsURL"]?.stringValue?.hasPrefix("https://127.0.0.1:") == true)
        #expect(json["pid"] == .number(String(started.process.processIdentifier)))
        #expect(json["keyID"] == "TESTKEY001" && json["teamID"] == "TESTTEAM01")
        #expect(json["environment"] == "sandbox" && json["version"] == .string(MockAPNsVersion.current))
        let caFile = try #require(json["caFile"]?.stringValue)
        let keyFile = try #require(json["keyFile"]?.stringValue)
        #expect(try String(contentsOfFile: caFile, encoding: .utf8).contains("BEGIN CERTIFICATE"))
        #expect(try String(contentsOfFile: keyFile, encoding: .utf8).contains("BEGIN PRIVATE KEY"))
        #expect(started.errors.contains("\nready"), "the banner goes to standard error: \(started.errors)")

        // A push with the named CA and key is answered 200.
        let apnsURL = try #require(json["apnsURL"]?.stringValue)
        let token = try ProviderTokenSigner.makeToken(
            teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: Int64(Date().timeIntervalSince1970),
            key: ES256PrivateKey(pem: String(contentsOfFile: keyFile, encoding: .utf8)))
        let push = try await Subprocess.run(
            "/usr/bin/env",
            [
                "curl", "-sS", "--http2", "--max-time", "15", "-o", "/dev/null", "-w", "%{http_code}",
                "--cacert", caFile, "-H", "apns-topic: com.example.app", "-H", "authorization: bearer \(token)",
                "-d", #"{"aps":{"alert":"hi"}}"#,
                apnsURL.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/3/device/"
                    + String(repeating: "ab", count: 32),
            ], in: AuthTestFiles.packageRoot)
        #expect(push.output == "200", "\(push.errors)")

        let controlURL = try #require(json["controlURL"]?.stringValue)
        let info = try await Subprocess.run(
            "/usr/bin/env", ["curl", "-sS", "\(controlURL)/v1/info"], in: AuthTestFiles.packageRoot)
        let answer = try JSONParser.parse(info.output)
        for key in keys { #expect(answer[key] == json[key], "\(key): \(info.output)") }
        #expect(answer["mode"] == "live")

        // Nothing else on standard output, up to the end.
        started.process.terminate()
        #expect(await started.process.waitUntilExit(timeout: .seconds(10)))
        let rest = await String(decoding: started.output.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
        #expect(rest.isEmpty, "more on standard output: \(rest)")
    }

    @Test("--exit-on-stdin-close shuts down cleanly once standard input is closed")
    func exitsOnStandardInputClose() async throws {
        let started = try await Self.start(["--exit-on-stdin-close"])
        defer { started.stop() }
        #expect(started.json != nil, "\(started.line)\n\(started.errors)")
        try started.input.fileHandleForWriting.write(contentsOf: Data("anything is read and ignored\n".utf8))
        #expect(started.process.isRunning, "input that does not end it is ignored")
        try started.input.fileHandleForWriting.close()
        #expect(await started.process.waitUntilExit(timeout: .seconds(10)), "still running after standard input closed")
        #expect(
            started.process.terminationReason == .exit && started.process.terminationStatus == 0,
            "\(started.errors)")
    }

    @Test("/v1/info of a journal file read back has the client members, null")
    func infoOfAFile() throws {
        let info = InspectorInfo.file("/tmp/x.jsonl", warnings: [])
        let json = try JSONParser.parse(info.json(controlURL: "http://127.0.0.1:1").jsonText)
        for key in ["caFile", "keyFile", "keyID", "teamID", "pid", "environment"] {
            #expect(json[key] == .null, "\(key)")
        }
    }

    @Test("reset --to refuses anything but started or loaded with a usage error")
    func resetTarget() async throws {
        let result = try await CLITests.run(["reset", "--to", "everything"])
        #expect(result.status != 0)
        #expect(result.errors.contains("--to must be started or loaded, got 'everything'"), "\(result.errors)")
    }
}
