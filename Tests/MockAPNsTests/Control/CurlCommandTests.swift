import Foundation
import Testing

@testable import MockAPNs

/// `GET /v1/requests/{seq}/curl`: the printed command is run with bash against the real server, and must get the
/// answer the recorded push got and send the same bytes.
@Suite("Copy as curl", .serialized)
struct CurlCommandTests {
    static let device = EndToEndTests.device

    /// The default world, with the CA file a client trusts named (as `mock-apns serve` names it).
    static var scenario: Scenario {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.listen.caFile = Curl.caFile
        return scenario
    }

    /// What a command printed by the route did when bash ran it.
    struct Run {
        var exit: Int32
        var status: Int?
        var body: String
        var errors: String
    }

    /// `GET /v1/requests/{sequence}/curl`, checked to be a text answer.
    static func command(_ control: MockAPNsControlAPI, _ sequence: UInt64) async throws -> String {
        let answer = try await ControlCurl.call("GET", control, "/v1/requests/\(sequence)/curl")
        try #require(answer.status == 200, "\(answer.text)")
        return answer.text
    }

    /// Runs `command` with bash from a temporary folder, with the test's environment plus `extra`.
    static func run(_ command: String, environment extra: [String: String] = [:]) async throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        for name in ["APNS_PROVIDER_TOKEN", "MOCK_APNS_CA", "APNS_CLIENT_CERT", "APNS_CLIENT_KEY"] {
            environment[name] = nil
        }
        environment.merge(extra) { _, new in new }
        let settled = environment
        let folder = FileManager.default.temporaryDirectory
        let result = try await Subprocess.run(
            "/bin/bash", ["-c", command], in: folder, environment: settled, timeout: 20)
        // curl --include: the status line, the headers, a blank line, the body.
        let parts = result.output.components(separatedBy: "\r\n\r\n")
        let status = parts.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return Run(
            exit: result.status, status: status, body: parts.dropFirst().joined(separator: "\r\n\r\n"),
            errors: result.errors)
    }

    /// Sends `body` to the device with `headers` (curl, as a provider would); answers the status.
    static func push(_ server: MockAPNsServer, headers: [String: String], body: String, token: String = device)
        async throws -> Int
    {
        let port = server.port
        return try await Curl.request(port: port, path: "/3/device/\(token)", headers: headers, body: body).status
    }

    @Test("a payload with quotes, newlines, $, backticks and non-ASCII text is sent again byte for byte: 200")
    func quotingSurvivesTheShell() async throws {
        try await withControlServer(scenario: Self.scenario) { server, control in
            let payload = """
                {
                  "aps": {"alert": {"title": "it's $HOME `whoami` \\"q\\" é 🚀 \\\\ %s", "body": "a\\nb"}},
                  "tab":\t"$(rm -rf /tmp/never)" , "x": "'\\''"
                }
                """
            #expect(try await Self.push(server, headers: EndToEndTests.pushHeaders(), body: payload) == 200)
            let command = try await Self.command(control, 1)
            #expect(command.hasPrefix("# mock-apns: push #1 again, recorded as 200"), "\(command)")
            #expect(
                command.contains(
                    "# the provider token is a fresh one, signed now with the embedded test key as TESTKEY001 "
                        + "(team TESTTEAM01); valid for an hour"), "\(command)")
            #expect(command.contains("--cacert \(Curl.caFile)"))
            let run = try await Self.run(command)
            #expect(run.exit == 0, "\(run.errors)\n\(command)")
            #expect(run.status == 200, "\(command)")
            let records = server.journal.records()
            try #require(records.count == 2)
            #expect(records[1].payload == records[0].payload)
            #expect(records[1].payloadText == payload)
            #expect(records[1].accepted)
            // The same headers, curl's own among them as the first push sent them; only the token is new.
            #expect(records[1].headers.map(\.name) == records[0].headers.map(\.name))
            let unsigned = { (headers: [APNsHeader]) in headers.filter { $0.name != "authorization" } }
            #expect(unsigned(records[1].headers) == unsigned(records[0].headers))
            #expect(records[1].auth?.verified == true)
        }
    }

    @Test(
        "a rejected push gets the same status and reason again",
        arguments: [(token: "not-hex", topic: "com.example.app"), (token: device, topic: nil)])
    func rejectedAgain(_ variant: (token: String, topic: String?)) async throws {
        try await withControlServer(scenario: Self.scenario) { server, control in
            // A malformed token (400 BadDeviceToken), or no apns-topic (400 MissingTopic).
            var headers = EndToEndTests.pushHeaders()
            headers["apns-topic"] = variant.topic
            let status = try await Self.push(server, headers: headers, body: EndToEndTests.alert, token: variant.token)
            let recorded = try #require(server.journal.records().first)
            #expect(status == 400)
            #expect(recorded.reason != nil)
            let run = try await Self.run(try await Self.command(control, 1))
            #expect(run.status == status)
            #expect(run.body == "{\"reason\":\"\(recorded.reason ?? "")\"}")
        }
    }

    @Test("a provider token APNs refused is kept, so the command gets the refusal again: 403 ExpiredProviderToken")
    func refusedTokenIsKept() async throws {
        try await withControlServer(scenario: Self.scenario) { server, control in
            let old = testProviderToken(at: Date() - 7200)
            let headers = EndToEndTests.pushHeaders(token: old)
            #expect(try await Self.push(server, headers: headers, body: EndToEndTests.alert) == 403)
            let command = try await Self.command(control, 1)
            #expect(command.contains("APNs refused it (ExpiredProviderToken)"), "\(command)")
            #expect(command.contains(old))
            let run = try await Self.run(command)
            #expect(run.status == 403)
            #expect(run.body == #"{"reason":"ExpiredProviderToken"}"#)
        }
    }

    @Test("a key the mock cannot sign with becomes APNS_PROVIDER_TOKEN, with a comment saying how to mint one")
    func unknownKeyIsAVariable() async throws {
        let yaml = """
            unknownKeys: reject
            keys:
              - {teamID: TESTTEAM01, keyID: OTHERKEY01, publicKey: ../certs/AuthKey_OTHERKEY01.pub.pem}
            """
        var scenario = try ScenarioLoader.parse(
            yaml: yaml, sourcePath: "test.yaml",
            baseDirectory: AuthTestFiles.packageRoot.appendingPathComponent("scenarios").path)
        scenario.listen.caFile = Curl.caFile
        let key = try ES256PrivateKey(pem: try AuthTestFiles.certificateFile("AuthKey_OTHERKEY01.p8"))
        func token() -> String {
            ProviderTokenSigner.makeToken(
                teamID: "TESTTEAM01", keyID: "OTHERKEY01", issuedAt: Int64(Date().timeIntervalSince1970), key: key)
        }
        try await withControlServer(scenario: scenario) { server, control in
            let headers = EndToEndTests.pushHeaders(token: token())
            #expect(try await Self.push(server, headers: headers, body: EndToEndTests.alert) == 200)
            let command = try await Self.command(control, 1)
            #expect(command.contains("# APNS_PROVIDER_TOKEN: the mock does not hold the private key of key OTHERKEY01"))
            #expect(
                command.contains(
                    "export APNS_PROVIDER_TOKEN=$(mock-apns token --p8 AuthKey_OTHERKEY01.p8 --team TESTTEAM01 "
                        + "--key-id OTHERKEY01)"), "\(command)")
            let unset = try await Self.run(command)
            #expect(unset.exit != 0 && unset.status == nil, "without the variable the command stops")
            #expect(unset.errors.contains("APNS_PROVIDER_TOKEN"))
            #expect(server.journal.count == 1)
            let run = try await Self.run(command, environment: ["APNS_PROVIDER_TOKEN": token()])
            #expect(run.status == 200, "\(run.errors)")
        }
    }

    @Test("a payload no shell word can carry (a NUL byte, a leading @) goes through printf, byte for byte")
    func printfPayloads() async throws {
        try await withControlServer(scenario: Self.scenario) { server, control in
            #expect(try await sendPush(server) == 200)
            // Edit and replay makes the odd payloads: a NUL byte (BadPayload is not the point: the bytes are).
            let nul = try await ControlCurl.call(
                "POST", control, "/v1/requests/1/replay", body: #"{"payload": "{\"aps\":{}}\u0000'%s\\"}"#)
            #expect(nul.status == 201)
            let at = try await ControlCurl.call(
                "POST", control, "/v1/requests/1/replay", body: #"{"payload": "@/etc/passwd"}"#)
            #expect(at.status == 201)
            for sequence: UInt64 in [2, 3] {
                let command = try await Self.command(control, sequence)
                #expect(command.contains("printf '"), "\(command)")
                #expect(command.contains("--data-binary @-"))
                let run = try await Self.run(command)
                #expect(run.exit == 0, "\(run.errors)")
                let records = server.journal.records()
                let original = try #require(records.first { $0.sequence == sequence })
                #expect(records.last?.payload == original.payload)
                #expect(records.last?.reason == original.reason)
            }
        }
    }

    @Test("without a CA file the command asks for MOCK_APNS_CA and says where the test CA is")
    func caVariable() async throws {
        try await withControlServer { server, control in
            #expect(try await sendPush(server) == 200)
            let command = try await Self.command(control, 1)
            #expect(command.contains("# MOCK_APNS_CA: the mock uses its embedded test CA"), "\(command)")
            #expect(try await Self.run(command).exit != 0)
            let run = try await Self.run(command, environment: ["MOCK_APNS_CA": Curl.caFile])
            #expect(run.status == 200)
        }
    }

    @Test("a push with a client certificate asks for APNS_CLIENT_CERT and APNS_CLIENT_KEY")
    func certificateVariables() async throws {
        try await withControlServer(scenario: Self.scenario) { server, control in
            let certs = AuthTestFiles.packageRoot.appendingPathComponent("certs").path
            let port = server.port
            let status = try await Curl.request(
                port: port, path: "/3/device/\(Self.device)",
                headers: ["apns-topic": "com.example.app", "apns-push-type": "alert"], body: EndToEndTests.alert,
                extraArguments: ["--cert", "\(certs)/client-sandbox.pem", "--key", "\(certs)/client-sandbox.key"]
            ).status
            #expect(status == 200)
            let command = try await Self.command(control, 1)
            #expect(command.contains("# APNS_CLIENT_CERT, APNS_CLIENT_KEY: the push came with a client certificate"))
            let run = try await Self.run(
                command,
                environment: [
                    "APNS_CLIENT_CERT": "\(certs)/client-sandbox.pem", "APNS_CLIENT_KEY": "\(certs)/client-sandbox.key",
                ])
            #expect(run.status == 200, "\(run.errors)")
            #expect(server.journal.records().last?.auth?.kind == "certificate")
        }
    }

    @Test("unknown and non-numeric sequence numbers are refused in a sentence")
    func badSequences() async throws {
        try await withControlServer { _, control in
            let unknown = try await ControlCurl.call("GET", control, "/v1/requests/7/curl")
            #expect(unknown.status == 404)
            #expect(unknown.error?.contains("no record #7") == true)
            let word = try await ControlCurl.call("GET", control, "/v1/requests/seven/curl")
            #expect(word.status == 400)
            #expect(word.error?.contains("'seven' is not a sequence number") == true)
        }
    }

    @Test("printf formats print every byte back as it was")
    func printfFormatRoundTrip() async throws {
        let bytes = (0...255).map(UInt8.init) + Array("'%s\\n$`x`".utf8)
        let result = try await Subprocess.run(
            "/bin/bash", ["-c", "printf \(ShellWord.printfFormat(bytes)) | od -An -v -tu1"])
        let printed = result.output.split(whereSeparator: \.isWhitespace).compactMap { UInt8($0) }
        #expect(printed == bytes)
        #expect(ShellWord.quoted("plain-word_1.2:/x") == "plain-word_1.2:/x")
        #expect(ShellWord.quoted("it's") == #"'it'\''s'"#)
        #expect(ShellWord.quoted("") == "''")
    }
}
