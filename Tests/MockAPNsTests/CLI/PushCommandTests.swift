import Foundation
import Testing

/// `mock-apns push` run as a process against a real `mock-apns serve`, its requests read back from the journal.
@Suite("mock-apns push", .serialized)
struct PushCommandTests {
    static let device = String(repeating: "0123456789abcdef", count: 4)

    /// Runs `mock-apns push arguments` from the package root; `environment` is added to the inherited one.
    static func push(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String, errors: String) {
        var inherited = ProcessInfo.processInfo.environment
        inherited["MOCK_APNS_URL"] = nil
        return try await Subprocess.run(
            CLITests.executable, ["push"] + arguments, in: AuthTestFiles.packageRoot,
            environment: inherited.merging(environment) { $1 }, timeout: 60)
    }

    /// The journal's records as JSON objects, once two reads 300 ms apart agree.
    static func records(_ server: ServeProcess) async throws -> [[String: Any]] {
        _ = try await server.records()
        let text = try String(contentsOfFile: server.journalPath ?? "", encoding: .utf8)
        return try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static func header(_ record: [String: Any], _ name: String) -> String? {
        (record["headers"] as? [[String]])?.first { $0.first == name }?.last
    }

    static func aps(_ record: [String: Any]) -> [String: Any] {
        ((record["payloadJSON"] as? [String: Any])?["aps"] as? [String: Any]) ?? [:]
    }

    @Test("--alert with headers reaches MOCK_APNS_URL: 200, exit 0, the record has the payload and headers asked for")
    func alert() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let apnsID = "1B3C7A4E-0F21-4C8D-9E55-6A2B8C1D0E9F"
        let result = try await Self.push(
            [
                Self.device, "--alert", "Hello", "--priority", "5", "--expiration", "0", "--collapse-id", "c1",
                "--apns-id", apnsID, "--topic", "com.example.other",
            ], environment: ["MOCK_APNS_URL": "https://localhost:\(server.port)"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("200 OK\n"), "\(result.output)")
        #expect(result.output.contains("apns-id: \(apnsID)"), "\(result.output)")
        #expect(result.output.contains("apns-unique-id: "), "\(result.output)")
        let record = try await #require(try Self.records(server).last)
        #expect(record["token"] as? String == Self.device)
        #expect(record["topic"] as? String == "com.example.other")
        #expect(record["pushType"] as? String == "alert")
        #expect(record["payload"] as? String == #"{"aps":{"alert":"Hello"}}"#)
        #expect(Self.header(record, "apns-priority") == "5")
        #expect(Self.header(record, "apns-expiration") == "0")
        #expect(Self.header(record, "apns-collapse-id") == "c1")
        #expect(Self.header(record, "apns-id") == apnsID)
        #expect((record["auth"] as? [String: Any])?["verified"] as? Bool == true)
    }

    @Test("--payload FILE is sent byte for byte; with --alert its other members are kept")
    func payloadFile() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("push-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = "{ \"aps\": {\"badge\": 3}, \"custom\": [1, 2.50] }\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let url = "https://localhost:\(server.port)"
        await #expect(try Self.push([Self.device, "--payload", path, "--url", url]).status == 0)
        await #expect(try Self.push([Self.device, "--payload", path, "--alert", "Hi", "--url", url]).status == 0)
        let records = try await Self.records(server)
        #expect(records.count == 2)
        #expect(records.first?["payload"] as? String == text)
        #expect(records.last?["payload"] as? String == #"{"aps":{"badge":3,"alert":"Hi"},"custom":[1,2.50]}"#)
    }

    @Test("an APNs error answer exits 1 with the status and reason, and the timestamp of a 410")
    func errorAnswers() async throws {
        let server = try await ServeProcess(arguments: ["--scenario", "scenarios/unregistered-after-first.yaml"])
        defer { server.stop() }
        let url = "https://localhost:\(server.port)"
        let bad = try await Self.push(["abc", "--alert", "x", "--url", url])
        #expect(bad.status == 1)
        #expect(bad.output.hasPrefix("400 BadDeviceToken\n"), "\(bad.output)")
        let token = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979"
        await #expect(try Self.push([token, "--alert", "x", "--url", url]).status == 0)
        let gone = try await Self.push([token, "--alert", "x", "--url", url])
        #expect(gone.status == 1)
        #expect(gone.output.hasPrefix("410 Unregistered\n"), "\(gone.output)")
        #expect(gone.output.contains("timestamp: "), "\(gone.output)")
    }

    @Test("--live-activity start fills event, timestamp, content-state, attributes, the topic suffix and push type")
    func liveActivityStart() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let before = Int(Date().timeIntervalSince1970)
        let result = try await Self.push([
            Self.device, "--url", "https://localhost:\(server.port)", "--live-activity", "start", "--alert", "Ride",
            "--attributes-type", "TaxiAttributes", "--attributes", #"{"driver":"Ann"}"#,
            "--content-state", #"{"eta":5}"#, "--priority", "10",
        ])
        let after = Int(Date().timeIntervalSince1970)
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let update = try await Self.push([
            Self.device, "--url", "https://localhost:\(server.port)", "--live-activity", "update",
            "--content-state", #"{"eta":2}"#,
        ])
        #expect(update.status == 0, "\(update.output)\(update.errors)")
        let records = try await Self.records(server)
        let start = try #require(records.first)
        #expect(start["topic"] as? String == "com.example.app.push-type.liveactivity")
        #expect(start["pushType"] as? String == "liveactivity")
        let aps = Self.aps(start)
        #expect(aps["event"] as? String == "start")
        let timestamp = try #require(aps["timestamp"] as? Int)
        #expect((before...after).contains(timestamp))
        #expect(aps["attributes-type"] as? String == "TaxiAttributes")
        #expect((aps["attributes"] as? [String: Any])?["driver"] as? String == "Ann")
        #expect((aps["content-state"] as? [String: Any])?["eta"] as? Int == 5)
        #expect(aps["alert"] as? String == "Ride")
        let next = Self.aps(try #require(records.last))
        #expect(next["event"] as? String == "update")
        #expect(next["attributes"] == nil && next["attributes-type"] == nil)
        #expect((next["content-state"] as? [String: Any])?["eta"] as? Int == 2)
    }

    @Test("--live-activity start asks for the update token (input-push-token: 1): the phone issues it, no note")
    func liveActivityStartAsksForTheToken() async throws {
        let server = try await ServeProcess(arguments: ["--scenario", "scenarios/taxi-ride.yaml"])
        defer { server.stop() }
        let start = [
            LiveActivityEndToEndTests.taxiStartToken, "--url", "https://localhost:\(server.port)", "--live-activity",
            "start", "--alert", "Ride", "--attributes-type", "mpushTaxiAttributes", "--attributes",
            #"{"appName":"Taxi","appLogo":"logo"}"#, "--content-state", #"{"status":"1"}"#,
        ]
        let asked = try await Self.push(start)
        #expect(asked.status == 0, "\(asked.output)\(asked.errors)")
        let unasked = try await Self.push(start + ["--no-input-push-token"])
        #expect(unasked.status == 0, "\(unasked.output)\(unasked.errors)")
        let records = try await Self.records(server)
        try #require(records.count == 2)
        #expect(Self.aps(records[0])["input-push-token"] as? Int == 1)
        let device = try #require(records[0]["device"] as? [String: Any])
        #expect(device["outcome"] as? String == "started")
        #expect((device["updateToken"] as? String)?.count == 160)
        #expect((device["notes"] as? [String]) == [], "\(device)")
        #expect(Self.aps(records[1])["input-push-token"] == nil)
        let second = try #require(records[1]["device"] as? [String: Any])
        #expect((second["notes"] as? [String])?.first?.hasPrefix("start without input-push-token: 1") == true)
    }

    @Test("--curl prints a command that bash and curl send with a 200, quoting included")
    func curl() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let printed = try await Self.push([
            Self.device, "--alert", "it's \"quoted\" $HOME", "--url", "https://localhost:\(server.port)", "--curl",
        ])
        #expect(printed.status == 0, "\(printed.errors)")
        #expect(printed.output.hasPrefix("curl --http2 "), "\(printed.output)")
        await #expect(try Self.records(server).isEmpty, "--curl must not send")
        let sent = try await Subprocess.run(
            "/bin/bash", ["-c", printed.output], in: AuthTestFiles.packageRoot, timeout: 60)
        #expect(sent.status == 0, "\(sent.errors)")
        #expect(sent.output.hasPrefix("HTTP/2 200"), "\(sent.output)")
        let record = try await #require(try Self.records(server).last)
        #expect(record["payload"] as? String == #"{"aps":{"alert":"it's \"quoted\" $HOME"}}"#)
    }

    @Test(
        "bad input is a usage error (exit 2) that names the option",
        arguments: [
            (["--alert", "x", "--priority", "7"], "--priority must be 10, 5 or 1"),
            (["--alert", "x", "--expiration", "-1"], "--expiration must be 0 or more"),
            (["--alert", "x", "--priority", "-5"], "--priority must be 10, 5 or 1"),
            (["--alert", "x", "--expiration", "99999999999999999999"], "--expiration"),
            (["--alert", "x", "--apns-id", "nope"], "--apns-id must be a UUID"),
            (["--alert", "x", "--url", "ftp://x"], "--url must look like https://HOST[:PORT]"),
            (["--alert", "x", "--key", "k.p8"], "--key needs --key-id and --team-id"),
            (["--live-activity", "update", "--content-state", "{\"eta\":"], "--content-state is not valid JSON"),
            (["--live-activity", "start", "--content-state", "{}"], "start needs --attributes-type"),
            (["--content-state", "{}"], "--content-state needs --live-activity"),
            (["--alert", "x", "--no-input-push-token"], "--no-input-push-token goes with --live-activity start only"),
            (
                ["--live-activity", "update", "--content-state", "{}", "--no-input-push-token"],
                "--no-input-push-token goes with --live-activity start only"
            ),
            ([], "nothing to send"),
            (
                ["--alert", "x", "--key", "/nonexistent/k.p8", "--key-id", "ABC123DEFG", "--team-id", "TEAM123456"],
                "cannot read /nonexistent/k.p8"
            ),
            (["--alert", "x", "--team-id", "team"], "--team-id must be a 10-character Team ID"),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let result = try await Self.push([Self.device] + arguments)
        #expect(result.status == 2, "\(result.output)\(result.errors)")
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test("a payload file that is not JSON is a usage error naming the option and the byte")
    func badPayloadFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("push-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"aps":{"alert":"x"},}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await Self.push([Self.device, "--payload", path, "--url", "https://localhost:1"])
        #expect(result.status == 2, "\(result.errors)")
        #expect(result.errors.contains("--payload \(path) is not valid JSON"), "\(result.errors)")
        #expect(result.errors.contains("at byte 21"), "\(result.errors)")
        let missing = try await Self.push([Self.device, "--payload", "/nonexistent/p.json"])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("/nonexistent/p.json: cannot read the file"), "\(missing.errors)")
    }

    @Test("an endpoint that cannot be reached exits 3 naming the URL and the cause")
    func unreachable() async throws {
        let result = try await Self.push([Self.device, "--alert", "x", "--url", "https://127.0.0.1:1"])
        #expect(result.status == 3, "\(result.output)\(result.errors)")
        #expect(result.errors.contains("cannot reach https://127.0.0.1:1: "), "\(result.errors)")
        #expect(result.errors.contains("refused"), "\(result.errors)")
    }
}
