import Foundation
import Testing
@testable import MockAPNs

/// Real third-party APNs client libraries from PyPI, used through their documented APIs, against the default
/// server: only host, port and trusted CA differ from production use (see each script's docstring for exactly
/// how). Each script in `Tests/clients/` prints one JSON line per case and exits 0 only when every answer was
/// the one real APNs would give; these tests run them and also check what the journal recorded.
///
/// The clients live in `.venv-clients/`, made by `Tests/clients/setup.sh`. `.ci/run` always runs setup.sh
/// first, so in CI these tests always run; and when `CI` is set they run even without the venv, so that a
/// missing venv fails there instead of being skipped. On a developer machine without the venv they are
/// reported as skipped, never as passed: run `Tests/clients/setup.sh` to enable them.
@Suite(
    "Third-party Python APNs clients against the default server", .serialized,
    .enabled(
        if: ThirdPartyClients.venvExists || ThirdPartyClients.inCI,
        "needs .venv-clients/: run Tests/clients/setup.sh (.ci/run always does)"))
struct ThirdPartyClientTests {
    /// The token the world marks unregistered (the scripts' default `--dead-token`).
    static let deadToken = String(repeating: "deadbeef", count: 8)
    /// When it became unregistered; the 410 answers carry it in milliseconds.
    static let unregisteredAt = Date(timeIntervalSince1970: 1_700_000_000)
    static let unregisteredMillis = "1700000000000"

    /// The embedded default scenario plus the unregistered device.
    static func scenario() -> Scenario {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.devices[deadToken] = Device(token: deadToken, unregisteredAt: unregisteredAt)
        return scenario
    }

    /// Runs `script` against a fresh server, requires exit 0 with every case ok, and returns the journal and
    /// the server's port. Over the proxy route the script also reports a `proxied` case.
    static func run(_ script: String, route: String = "direct", expectedCases: Set<String>) async throws
        -> (records: [JournalRecord], port: Int)
    {
        let expectedCases = route == "proxy" ? expectedCases.union(["proxied"]) : expectedCases
        return try await withTestServer(scenario: scenario()) { server in
            let result = try await ThirdPartyClients.run(
                script: script, arguments: ["--port", String(server.port), "--route", route])
            let cases = result.cases
            #expect(
                Set(cases.map(\.name)) == expectedCases, "cases reported: \(cases.map(\.name))\n\(result.transcript)")
            for clientCase in cases {
                #expect(clientCase.ok, "\(script) case \(clientCase.name) failed: \(clientCase.line)")
            }
            #expect(result.status == 0, "\(script) exited \(result.status)\n\(result.transcript)")
            return (server.journal.records(), server.port)
        }
    }

    /// The checks every client's journal must pass: the three APNs answers of the brief, as recorded.
    static func expectCommonRecords(
        _ records: [JournalRecord], liveToken: String = ThirdPartyClients.liveToken
    ) throws {
        let success = try #require(
            records.first { $0.deviceToken == liveToken && $0.accepted }, "no accepted push recorded")
        #expect(success.rule == "accepted")
        #expect(success.response?.status == 200)
        #expect(success.auth?.verified == true)
        #expect(success.auth?.teamID == "TESTTEAM01")
        #expect(success.payloadJSON?.value(atPath: "aps.alert.title") == "Order ready")

        let badToken = try #require(
            records.first { $0.deviceToken == "xyz" }, "no push to the malformed token recorded")
        #expect(!badToken.accepted)
        #expect(badToken.reason == "BadDeviceToken")
        #expect(badToken.response?.status == 400)

        let gone = try #require(
            records.first { $0.deviceToken == deadToken }, "no push to the unregistered token recorded")
        #expect(!gone.accepted)
        #expect(gone.reason == "Unregistered")
        #expect(gone.response?.status == 410)
        #expect(gone.response?.body == #"{"reason":"Unregistered","timestamp":\#(unregisteredMillis)}"#)
    }

    @Test(
        "aioapns 4.0: no ALPN, `host` for :authority, answers matched by apns-id, concurrent pushes, certificates")
    func aioapns() async throws {
        let (records, _) = try await Self.run(
            "aioapns_client.py",
            expectedCases: [
                "success", "bad-device-token", "bad-priority", "unregistered", "concurrent", "certificate-auth",
            ])
        // (A push rejected before authentication is checked, such as BadPriority, records no auth.)
        let tokenRecords = records.filter { $0.auth?.kind != "certificate" }
        try Self.expectCommonRecords(tokenRecords)
        // aioapns sends `host` and no `:authority`; the journal takes the authority from `host`.
        for record in records {
            #expect(record.authority == "localhost")
            #expect(record.headers.contains { $0.name == "host" && $0.value == "localhost" })
            // It always sends its own apns-id (a UUID), and the mock must echo it byte for byte.
            #expect(record.requestAPNsID != nil)
            #expect(record.response?.apnsID == record.requestAPNsID)
        }
        #expect(tokenRecords.contains { $0.reason == "BadPriority" && $0.response?.status == 400 })
        // Four single pushes, then a warm-up push and twenty concurrent ones on one connection of their own.
        #expect(tokenRecords.count == 25)
        #expect(tokenRecords.filter(\.accepted).count == 22)
        let acceptedByConnection = Dictionary(grouping: tokenRecords.filter(\.accepted), by: \.connectionID)
        #expect(acceptedByConnection.values.map(\.count).max() == 21)
        // Half of the concurrent pushes carried upper-case apns-ids: echoed unchanged.
        #expect(tokenRecords.contains { ($0.requestAPNsID ?? "").contains { $0.isUppercase } && $0.accepted })

        // The certificate connection: no authorization header, topics from the client certificate.
        let certificateRecords = records.filter { $0.auth?.kind == "certificate" }
        #expect(certificateRecords.count == 2)
        #expect(certificateRecords.allSatisfy { $0.auth?.certificateTopics == ["com.example.app"] })
        #expect(certificateRecords.allSatisfy { !$0.headers.contains { $0.name == "authorization" } })
        #expect(certificateRecords.first { $0.deviceToken == ThirdPartyClients.liveToken }?.accepted == true)
        #expect(certificateRecords.first { $0.deviceToken == Self.deadToken }?.reason == "Unregistered")
    }

    @Test(
        "kalyke-apns 1.5.0 (httpx2, iat as a string), host and port by subclass or CONNECT proxy",
        arguments: ["direct", "proxy"])
    func kalyke(route: String) async throws {
        let (records, port) = try await Self.run(
            "kalyke_client.py", route: route,
            expectedCases: ["success", "bad-device-token", "unregistered", "live-activity-update"])
        try Self.expectCommonRecords(records)
        #expect(records.count == 4)
        // A new connection for every push, each with a freshly signed token whose iat is a string: accepted
        // and flagged.
        #expect(Set(records.map(\.connectionID)).count == records.count)
        for record in records {
            #expect(record.notes.contains { $0.contains("iat") }, "notes: \(record.notes)")
            // httpx2 sends :authority with the port unless it is 443.
            #expect(record.authority == (route == "proxy" ? "api.sandbox.push.apple.com" : "localhost:\(port)"))
        }
        let activity = try #require(records.first { $0.pushType == "liveactivity" })
        #expect(activity.accepted)
        #expect(activity.deviceToken?.count == 160)
        #expect(activity.topic == "com.example.app.push-type.liveactivity")
        #expect(activity.payloadJSON?.value(atPath: "aps.event") == "update")
    }

    @Test("PyAPNs2 API (apns2-up 0.9.0, hyper, iat as a float): single pushes and a batch")
    func apns2() async throws {
        let (records, _) = try await Self.run(
            "apns2_client.py", expectedCases: ["success", "bad-device-token", "unregistered", "batch"])
        try Self.expectCommonRecords(records)
        #expect(records.count == 15)
        #expect(records.filter(\.accepted).count == 11)
        // One connection for everything, the batch included.
        #expect(Set(records.map(\.connectionID)).count == 1)
        #expect(records.allSatisfy { $0.auth?.verified == true })
    }

    @Test("pyapns_client 2.0.6 (httpx, iat as a float, no apns-push-type)", arguments: ["direct", "proxy"])
    func pyapnsClient(route: String) async throws {
        let (records, port) = try await Self.run(
            "pyapns_client_client.py", route: route,
            expectedCases: ["success", "bad-device-token", "bad-priority", "unregistered"])
        try Self.expectCommonRecords(records)
        #expect(records.count == 4)
        #expect(records.contains { $0.reason == "BadPriority" && $0.response?.status == 400 })
        for record in records where record.reason != "BadPriority" {
            // No apns-push-type header: taken as alert, and said so.
            #expect(record.pushType == "alert")
            #expect(record.notes.contains { $0.contains("apns-push-type") }, "notes: \(record.notes)")
        }
        let authority = route == "proxy" ? "api.development.push.apple.com" : "localhost:\(port)"
        #expect(records.allSatisfy { $0.authority == authority }, "\(records.map(\.authority))")
    }
}

/// Runs the Python client scripts of `Tests/clients/` with the venv's interpreter.
enum ThirdPartyClients {
    /// The token the scripts push to successfully (`LIVE_TOKEN` in `_common.py`).
    static let liveToken = String(repeating: "0123456789abcdef", count: 4)

    static var venvPython: URL { AuthTestFiles.packageRoot.appendingPathComponent(".venv-clients/bin/python") }
    static var venvExists: Bool { FileManager.default.isExecutableFile(atPath: venvPython.path) }
    static var inCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false }

    /// One JSON line a script printed: `{"case": ..., "ok": ..., "detail": ...}`.
    struct Case {
        var name: String
        var ok: Bool
        var line: String
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        var cases: [Case] {
            stdout.split(separator: "\n").compactMap { line in
                guard let data = line.data(using: .utf8),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let name = object["case"] as? String, let ok = object["ok"] as? Bool
                else { return nil }
                return Case(name: name, ok: ok, line: String(line))
            }
        }

        var transcript: String { "stdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `Tests/clients/<script>` with the test certificates, off the cooperative thread pool, killing it
    /// after `timeout` seconds.
    static func run(script: String, arguments: [String], timeout: TimeInterval = 120) async throws -> Result {
        guard venvExists else {
            throw Failure(description: "\(venvPython.path) is missing: run Tests/clients/setup.sh (.ci/run does)")
        }
        let root = AuthTestFiles.packageRoot
        let arguments =
            [root.appendingPathComponent("Tests/clients/\(script)").path] + arguments + [
                "--ca", root.appendingPathComponent("certs/ca.pem").path,
                "--p8", root.appendingPathComponent("certs/AuthKey_TESTKEY001.p8").path,
                "--team", "TESTTEAM01", "--key-id", "TESTKEY001", "--topic", "com.example.app",
            ]
        var environment = ProcessInfo.processInfo.environment
        // The scripts set what they need; nothing from the caller's environment may reroute or re-trust them.
        let inherited = [
            "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "SSL_CERT_FILE",
            "SSL_CERT_DIR",
        ]
        for name in inherited {
            environment[name] = nil
        }
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment["PYTHONUNBUFFERED"] = "1"
        let result = try await offPool { [environment] in
            try Subprocess.runBlocking(venvPython.path, arguments, in: root, environment: environment, timeout: timeout)
        }
        return Result(status: result.status, stdout: result.output, stderr: result.errors)
    }
}
