import Foundation
import Testing

@testable import MockAPNs

/// The messages `mock-apns` prints when something is wrong, and the banner, read as a user reads them.
@Suite("mock-apns messages and banner", .serialized)
struct CLIMessagesTests {
    static let root = AuthTestFiles.packageRoot

    /// A fresh empty folder, outside any checkout.
    static func emptyFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a taken APNs port names the address, --port 0 and the ss command, in one sentence")
    func apnsPortInUse() async throws {
        try await withTestServer { server in
            let port = server.port
            let result = try await CLITests.run(["serve", "--port", String(port), "--no-control"])
            #expect(result.status == 1)
            let message = result.errors
            #expect(
                message.contains(
                    "cannot listen on 127.0.0.1:\(port) for the APNs port: the port is already in use by another process."
                ),
                "\(message)"
            )
            #expect(message.contains("--port 0 takes a free one"), "\(message)")
            #expect(message.contains("ss -ltnp 'sport = :\(port)'"), "\(message)")
            #expect(!message.contains("errno") && !message.contains("bind(descriptor"), "\(message)")
        }
    }

    @Test("a taken control port says so once, with --control-port and --no-control, and no HTTP status")
    func controlPortInUse() async throws {
        try await withControlServer { _, control in
            let result = try await CLITests.run(["serve", "--port", "0", "--control-port", String(control.port)])
            #expect(result.status == 1)
            let message = result.errors
            #expect(
                message.contains("cannot listen on 127.0.0.1:\(control.port) for the control API: the port is already"),
                "\(message)"
            )
            #expect(message.components(separatedBy: "cannot").count == 2, "said once: \(message)")
            #expect(message.contains("--control-port 0") && message.contains("--no-control"), "\(message)")
            #expect(!message.contains("HTTP 500"), "\(message)")
        }
    }

    @Test("an address that is not this machine's names --host")
    func foreignAddress() async throws {
        let result = try await CLITests.run(["serve", "--host", "192.0.2.1", "--port", "0", "--no-control"])
        #expect(result.status == 1)
        #expect(result.errors.contains("'192.0.2.1' is not an address of this machine"), "\(result.errors)")
        #expect(result.errors.contains("Give --host an address of this machine"), "\(result.errors)")
    }

    @Test("a CLI with no server to talk to says refused, asks whether serve runs, and names --control-url")
    func unreachableControlAPI() async throws {
        let result = try await CLITests.run(["requests", "--control-url", "http://127.0.0.1:9"])
        #expect(result.status == 1)
        #expect(
            result.errors.contains(
                "cannot reach the mock-apns control API at http://127.0.0.1:9: connection refused (nothing listens "
                    + "there). Is `mock-apns serve` running"
            ),
            "\(result.errors)"
        )
        #expect(result.errors.contains("--control-url URL or $MOCK_APNS_CONTROL_URL"), "\(result.errors)")
        #expect(!result.errors.contains("errno") && !result.errors.contains("(error set)"), "\(result.errors)")
    }

    @Test("a missing control token names --control-token and the environment variable")
    func missingControlToken() async throws {
        try await withControlServer(token: "s3cret") { _, control in
            let refused = try await CLITests.run(["requests", "--control-url", control.url])
            #expect(refused.status == 1)
            #expect(refused.errors.contains("the control token is missing"), "\(refused.errors)")
            #expect(refused.errors.contains("--control-token TOKEN or $MOCK_APNS_CONTROL_TOKEN"), "\(refused.errors)")
            let allowed = try await CLITests.run(
                ["requests", "--control-url", control.url, "--control-token", "s3cret"])
            #expect(allowed.status == 0, "\(allowed.errors)")
        }
    }

    @Test(
        "refuses a misspelt --environment with a did-you-mean",
        arguments: [("prod", "production"), ("dev", "development"), ("Sandbox", "sandbox"), ("sandbx", "sandbox")]
    )
    func environmentSpelling(typed: String, meant: String) async throws {
        let result = try await CLITests.run(["serve", "--environment", typed, "--port", "0", "--no-control"])
        #expect(result.status != 0)
        #expect(
            result.errors.contains(
                "--environment must be sandbox (or development) or production, got '\(typed)' (did you mean '\(meant)'?)"
            ),
            "\(result.errors)"
        )
    }

    @Test("token refuses a team or key id that is not 10 characters of A-Z and 0-9")
    func tokenIdentifiers() async throws {
        let short = try await CLITests.run(["token", "--team", "bad"])
        #expect(short.status != 0)
        #expect(short.errors.contains("--team must be your 10-character Team ID"), "\(short.errors)")
        #expect(short.errors.contains("got 'bad': it has 3 characters"), "\(short.errors)")
        let lower = try await CLITests.run(["token", "--key-id", "testkey001"])
        #expect(lower.status != 0)
        #expect(lower.errors.contains("--key-id must be the 10-character Key ID"), "\(lower.errors)")
        #expect(lower.errors.contains("'t' is not A-Z or 0-9 (upper case only)"), "\(lower.errors)")
        let good = try await CLITests.run(["token", "--team", "ABCDE12345", "--key-id", "TESTKEY001"])
        #expect(good.status == 0, "\(good.errors)")
        #expect(
            try ProviderToken.parse(good.output.trimmingCharacters(in: .whitespacesAndNewlines)).issuer == "ABCDE12345"
        )
    }

    @Test("check counts in words: 1 key, 0 apps")
    func checkPlurals() async throws {
        let result = try await CLITests.run(["check", "scenarios/default.yaml"])
        #expect(result.output.contains("1 key, 0 apps, 0 devices, 0 rules"), "\(result.output)")
        let strict = try await CLITests.run(["check", "scenarios/strict.yaml"])
        #expect(strict.output.contains("2 keys, 1 app, "), "\(strict.output)")
    }

    @Test("serve --help shows each default once")
    func helpDefaults() async throws {
        let help = try await CLITests.run(["serve", "--help"]).output
        #expect(!help.contains("(default: 127.0.0.1)"), "\(help)")
        #expect(help.contains("Default: 127.0.0.1 (only this"), "\(help)")
    }

    @Test("the banner prints the watch command for this control API and token, and that command works")
    func bannerWatchCommand() async throws {
        let serve = try await ServeProcess(["--port", "0", "--control-token", "tok en'1"], in: Self.root)
        defer { serve.stop() }
        let url = try #require(serve.controlURL, "\(serve.banner)")
        let watch = try #require(serve.bannerLine(containing: "watch pushes"), "\(serve.banner)")
        let command = "mock-apns requests --follow --control-url \(url) --control-token 'tok en'\\''1'"
        #expect(watch.hasSuffix(command), "\(watch)")
        // At the default log level nothing is logged before the banner (Hummingbird's "Server started" line was).
        #expect(serve.errors.isEmpty, "\(serve.errors)")
        // The same options, without --follow, reach this server (the shell would unquote the token so).
        let listed = try await CLITests.run(["requests", "--control-url", url, "--control-token", "tok en'1"])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.hasPrefix("SEQ"), "\(listed.output)")
    }

    @Test("the banner says when the control API is off, and starts with no log line")
    func bannerWithoutControl() async throws {
        let serve = try await ServeProcess(["--port", "0", "--no-control"], in: Self.root)
        defer { serve.stop() }
        #expect(serve.banner.hasPrefix("mock-apns: scenario 'default', environment sandbox\n"), "\(serve.banner)")
        #expect(serve.banner.contains("  control API             off (--no-control)"), "\(serve.banner)")
        #expect(!serve.banner.contains("requests --follow"), "\(serve.banner)")
    }

    @Test("outside a checkout the banner names the CA file it wrote to the temporary folder")
    func bannerTemporaryCA() async throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let serve = try await ServeProcess(["--port", "0", "--no-control"], in: folder)
        defer { serve.stop() }
        let line = try #require(serve.bannerLine(containing: "trust this CA"), "\(serve.banner)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-ca.pem").path
        #expect(line.contains("\(path)  (the embedded test CA, written there"), "\(line)")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            written.trimmingCharacters(in: .whitespacesAndNewlines)
                == TestCredentials.caPEM.trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    @Test("the documented PUT /v1/scenario example loads every shipped scenario, from the repo root and elsewhere")
    func putShippedScenarios() async throws {
        let elsewhere = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        for serverFolder in [Self.root, elsewhere] {
            let serve = try await ServeProcess(["--port", "0"], in: serverFolder)
            defer { serve.stop() }
            let control = try #require(serve.controlURL, "\(serve.banner)")
            for name in ["strict", "faults", "live-activity", "token-refresh", "unregistered-after-first", "default"] {
                // As docs/control-api.md writes it: curl -X PUT $C/v1/scenario --data-binary @scenarios/NAME.yaml
                let result = try await Subprocess.run(
                    "/usr/bin/curl",
                    [
                        "-sS", "-w", "\n%{http_code}", "-X", "PUT", "\(control)/v1/scenario", "--data-binary",
                        "@scenarios/\(name).yaml",
                    ],
                    in: Self.root
                )
                #expect(result.output.hasSuffix("\n200"), "\(name) from \(serverFolder.path): \(result.output)")
            }
        }
    }

    @Test("?base=DIR changes the folder, a wrong one is refused, and an unreadable file names the folder used")
    func putWithBase() async throws {
        try await withControlServer { _, control in
            let strict = try String(
                contentsOf: Self.root.appendingPathComponent("scenarios/strict.yaml"),
                encoding: .utf8
            )
            let scenarios = Self.root.appendingPathComponent("scenarios").path
            let based = try await ControlCurl.call(
                "PUT",
                control,
                "/v1/scenario?base=\(scenarios)",
                body: strict
            )
            #expect(based.status == 200, "\(based.text)")
            let wrongBase = try await ControlCurl.call("PUT", control, "/v1/scenario?base=/tmp", body: strict)
            #expect(wrongBase.status == 422)
            #expect(wrongBase.error?.contains("cannot read /certs/AuthKey_TESTKEY001.p8") == true, "\(wrongBase.text)")
            #expect(
                wrongBase.error?.contains("relative paths in a PUT /v1/scenario body start from /tmp") == true,
                "\(wrongBase.text)"
            )
            let missing = try await ControlCurl.call("PUT", control, "/v1/scenario?base=/nonexistent", body: strict)
            #expect(missing.status == 400)
            #expect(missing.error?.hasPrefix("base '/nonexistent' is not a folder on the server") == true)
            let typo = try await ControlCurl.call("PUT", control, "/v1/scenario?bse=/tmp", body: strict)
            #expect(typo.status == 400)
            #expect(typo.error?.hasPrefix("unknown query parameter 'bse' (did you mean 'base'?)") == true)
        }
    }

    @Test("the shipped scenarios folder is found above the executable, else in the working directory")
    func projectScenarioFolder() throws {
        let expected = Self.root.appendingPathComponent("scenarios").standardizedFileURL.path
        let binary = URL(fileURLWithPath: CLITests.executable)
        #expect(ScenarioFolder.project(executable: binary, workingDirectory: "/") == expected)
        #expect(ScenarioFolder.project(executable: nil, workingDirectory: Self.root.path) == expected)
        #expect(ScenarioFolder.project(executable: URL(fileURLWithPath: "/usr/bin/env"), workingDirectory: "/") == nil)
    }
}
