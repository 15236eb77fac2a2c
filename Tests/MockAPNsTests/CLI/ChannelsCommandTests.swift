import Foundation
import Testing

@testable import MockAPNs

/// `mock-apns channels` and `mock-apns push --channel` run as processes against a real `mock-apns serve`, their
/// requests read back from its journal.
@Suite("mock-apns channels and push --channel", .serialized)
struct ChannelsCommandTests {
    /// Runs `mock-apns arguments` from the package root with no `MOCK_APNS_*` inherited and `environment` added.
    static func mockAPNs(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String, errors: String) {
        try await RunTestSupport.mockAPNs(arguments, environment: environment, timeout: 60)
    }

    /// The channel port from the banner's "channels (HTTP/2, TLS)" line.
    static func channelsURL(_ server: ServeProcess) throws -> String {
        let line = try #require(server.bannerLine(containing: "channels (HTTP/2, TLS)"))
        let url = try #require(line.split(separator: " ").first { $0.hasPrefix("https://") })
        return String(url)
    }

    /// `channels OPERATION` against `server`'s channel port.
    static func channels(
        _ server: ServeProcess, _ arguments: [String]
    ) async throws -> (status: Int32, output: String, errors: String) {
        try await mockAPNs(["channels"] + arguments + ["--channels-url", try channelsURL(server)])
    }

    @Test("create, list, read and delete a channel: the id printed, listed, read back, deleted, then not registered")
    func lifecycle() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let created = try await Self.channels(server, ["create", "--policy", "1"])
        #expect(created.status == 0, "\(created.errors)")
        let id = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(BroadcastChannel.isWellFormedID(id), "\(created.output)")

        let listed = try await Self.channels(server, ["list"])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output == id + "\n")

        let read = try await Self.channels(server, ["read", id])
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output.contains("channel: \(id)\n"), "\(read.output)")
        #expect(read.output.contains("message-storage-policy: 1 (the most recent message stored)"), "\(read.output)")
        #expect(read.output.contains("push-type: LiveActivity"), "\(read.output)")

        let deleted = try await Self.channels(server, ["delete", id])
        #expect(deleted.status == 0, "\(deleted.errors)")
        #expect(deleted.output == "deleted channel \(id) of com.example.app\n")

        let gone = try await Self.channels(server, ["read", id, "--control-url", try #require(server.controlURL)])
        #expect(gone.status == 1)
        #expect(gone.errors.contains("400 ChannelNotRegistered"), "\(gone.errors)")
        #expect(gone.errors.contains("why: com.example.app has no channel \(id)"), "\(gone.errors)")
        #expect(gone.errors.contains("apns-request-id: "), "\(gone.errors)")
        let empty = try await Self.channels(server, ["list"])
        #expect(empty.status == 0 && empty.output.isEmpty)
        #expect(empty.errors.contains("com.example.app has no channels"), "\(empty.errors)")

        let records = try await PushCommandTests.records(server).filter { $0["kind"] as? String == "channel" }
        #expect(records.map { $0["operation"] as? String } == ["create", "list", "read", "delete", "read", "list"])
        #expect(records.first?["storagePolicy"] as? Int == 1)
        #expect(records.first?["channel"] as? String == id)
    }

    @Test("without --channels-url it asks the running mock's control API for its channel endpoint")
    func endpointFromControlAPI() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let control = try #require(server.controlURL)
        let created = try await Self.mockAPNs(["channels", "create", "--control-url", control])
        #expect(created.status == 0, "\(created.errors)")
        let id = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let underRun = try await Self.mockAPNs(
            ["channels", "list"], environment: ["MOCK_APNS_CHANNELS_URL": try Self.channelsURL(server)])
        #expect(underRun.output == id + "\n", "\(underRun.errors)")
    }

    @Test("a client certificate authenticates channels and push --channel instead of a provider token")
    func clientCertificate() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let created = try await Self.channels(
            server, ["create", "--cert", "certs/client-sandbox.pem", "--cert-key", "certs/client-sandbox.key"])
        #expect(created.status == 0, "\(created.errors)")
        let id = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let sent = try await Self.mockAPNs([
            "push", "--channel", id, "--live-activity", "update", "--content-state", "{}", "--url",
            "https://localhost:\(server.port)", "--cert", "certs/client-sandbox.pem", "--cert-key",
            "certs/client-sandbox.key",
        ])
        #expect(sent.status == 0, "\(sent.output)\(sent.errors)")
        // The requests: the broadcast's fan-out record (no subscriber here) may follow them at any moment.
        let records = try await PushCommandTests.records(server).filter { $0["kind"] as? String != "fan-out" }
        #expect(records.map { $0["kind"] as? String } == ["channel", "broadcast"])
        for record in records {
            #expect((record["auth"] as? [String: Any])?["kind"] as? String == "certificate", "\(record)")
        }
    }

    @Test(
        "refuses bad input with a usage error (exit 2) that names it, before sending anything",
        arguments: [
            (["create", "--policy", "2"], "--policy must be 0 (no message stored) or 1"),
            (["create", "--policy", "-1"], "--policy must be 0"),
            (["read", "not base64!"], "the channel id must be base64"),
            (["delete", "abc"], "the channel id must be base64"),
            (["list", "--bundle", ""], "--bundle must be an app's bundle id"),
            (["list", "--channels-url", "http://localhost:2195"], "--channels-url must look like https://"),
            (["list", "--key", "k.p8"], "--key needs --key-id and --team-id"),
            (["create", "--cert-key", "x.key"], "--cert-key goes with --cert"),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let result = try await Self.mockAPNs(["channels"] + arguments)
        #expect(result.status == 2, "\(result.output)\(result.errors)")
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test("an endpoint that cannot be reached exits 3 with one sentence that says why")
    func unreachable() async throws {
        let result = try await Self.mockAPNs(["channels", "list", "--channels-url", "https://127.0.0.1:1"])
        #expect(result.status == 3)
        #expect(
            result.errors.contains("error: cannot reach https://127.0.0.1:1: connection refused"), "\(result.errors)")
        // The way to point channels elsewhere is its own flag, not push's --url.
        #expect(result.errors.contains("set MOCK_APNS_CHANNELS_URL or pass --channels-url"), "\(result.errors)")
        #expect(!result.errors.contains("pass --url"), "\(result.errors)")
    }

    @Test("push --channel broadcasts to the channel: 200, apns-request-id and apns-unique-id, a broadcast record")
    func pushToChannel() async throws {
        let server = try await ServeProcess()
        defer { server.stop() }
        let id = try await Self.channels(server, ["create"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let url = "https://localhost:\(server.port)"
        let sent = try await Self.mockAPNs([
            "push", "--channel", id, "--live-activity", "update", "--content-state", #"{"score":"1-0"}"#, "--url", url,
        ])
        #expect(sent.status == 0, "\(sent.output)\(sent.errors)")
        #expect(sent.output.hasPrefix("200 OK\napns-request-id: "), "\(sent.output)")
        #expect(sent.output.contains("apns-unique-id: "), "\(sent.output)")
        let record = try await #require(
            try PushCommandTests.records(server).last { $0["kind"] as? String != "fan-out" })
        #expect(record["kind"] as? String == "broadcast")
        #expect(record["channel"] as? String == id)
        #expect(record["path"] as? String == "/4/broadcasts/apps/com.example.app")
        #expect(record["priority"] as? Int == 10 && record["expiration"] as? Int == 0)
        let payload = try #require(record["payload"] as? String)
        #expect(payload.contains(#""content-state":{"score":"1-0"}"#) && payload.contains(#""event":"update""#))

        let unknown = try await Self.mockAPNs([
            "push", "--channel", "dW5rbm93bg==", "--live-activity", "update", "--content-state", "{}", "--url", url,
        ])
        #expect(unknown.status == 1)
        #expect(unknown.output.hasPrefix("400 ChannelNotRegistered\napns-request-id: "), "\(unknown.output)")

        let later = String(Int(Date().timeIntervalSince1970) + 3600)
        let refused = try await Self.mockAPNs([
            "push", "--channel", id, "--live-activity", "end", "--content-state", "{}", "--expiration", later,
            "--url", url, "--control-url", try #require(server.controlURL),
        ])
        #expect(refused.status == 1)
        #expect(refused.output.hasPrefix("400 BadExpirationDate"), "\(refused.output)")
        #expect(refused.output.contains("\nwhy: "), "\(refused.output)")
    }

    @Test(
        "push --channel refuses what a broadcast has not (a device token, a collapse id, a start) with exit 2",
        arguments: [
            (["0123abcd", "--channel", "dGVzdA==", "--alert", "x"], "give it or a device token"),
            (["--channel", "not base64", "--alert", "x"], "--channel must be a channel id in base64"),
            (["--channel", "dGVzdA==", "--alert", "x", "--collapse-id", "c"], "--collapse-id is for a push to a"),
            (["--channel", "dGVzdA==", "--alert", "x", "--push-type", "alert"], "push type liveactivity"),
            (["--channel", "dGVzdA==", "--alert", "x", "--topic", ""], "--topic (with --channel, the app's bundle id)"),
            (["--channel", "dGVzdA==", "--alert", "x", "--topic", "com.example app"], "got 'com.example app'"),
            (["--channel", "dGVzdA==", "--alert", "x", "--topic", "com.example.app?x=1"], "got 'com.example.app?x=1'"),
            (
                [
                    "--channel", "dGVzdA==", "--live-activity", "start", "--attributes-type", "T", "--attributes",
                    "{}", "--content-state", "{}",
                ], "not start"
            ),
            (["--alert", "x"], "give a device token, or --channel ID"),
        ])
    func pushToChannelUsageErrors(arguments: [String], message: String) async throws {
        let result = try await Self.mockAPNs(["push"] + arguments + ["--url", "https://127.0.0.1:1"])
        #expect(result.status == 2, "\(result.output)\(result.errors)")
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test("push --channel --curl prints the broadcast as curl sends it, with the channel header and no topic")
    func curlOfBroadcast() async throws {
        let result = try await Self.mockAPNs(["push", "--channel", "dGVzdA==", "--alert", "Goal", "--curl"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("-H 'apns-channel-id: dGVzdA=='"), "\(result.output)")
        #expect(
            result.output.hasSuffix("  https://localhost:2197/4/broadcasts/apps/com.example.app\n"), "\(result.output)")
        #expect(!result.output.contains("apns-topic"), "\(result.output)")
    }

    @Test("mock-apns run checks channel: and operation: expectations against what the CLI sent under it")
    func runExpectations() async throws {
        let folder = try RunTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try RunTestSupport.write(
            """
            channels:
              - { id: c2NvcmVzLTE=, app: com.example.app }
            expect:
              - name: the provider made its channel
                match: { operation: create }
                answered: 201
              - name: two score updates to the match channel
                match: { channel: c2NvcmVzLTE= }
                count: 2
                answered: 200
            """, "scores.yaml", in: folder)
        func run(_ script: String) async throws -> (status: Int32, output: String, errors: String) {
            try await Self.mockAPNs(["run", scenario, "--", "sh", "-c", script])
        }
        let update = "mock-apns push --channel c2NvcmVzLTE= --live-activity update --content-state '{}' >/dev/null"
        let passed = try await run("mock-apns channels create >/dev/null && \(update) && \(update)")
        #expect(passed.status == 0, "\(passed.output)\(passed.errors)")
        #expect(passed.output.contains("✓ two score updates to the match channel: 2 pushes"), "\(passed.output)")
        #expect(passed.output.contains("2 passed, 0 failed, 3 records checked"), "\(passed.output)")

        let missed = try await run(update)
        #expect(missed.status == 1, "\(missed.output)\(missed.errors)")
        #expect(missed.output.contains("✗ the provider made its channel: got 0, expected 1 push"), "\(missed.output)")
        #expect(
            missed.output.contains(
                "expected 2 pushes matching kind:broadcast channel:c2NvcmVzLTE=, answered 200; got 1"),
            "\(missed.output)")
    }

    @Test("mock-apns help lists channels, and channels --help lists its four operations")
    func help() async throws {
        let top = try await Self.mockAPNs(["--help"])
        #expect(top.output.contains("channels"), "\(top.output)")
        let own = try await Self.mockAPNs(["channels", "--help"])
        for operation in ["create", "list", "read", "delete"] {
            #expect(own.output.contains("  \(operation) "), "\(own.output)")
        }
    }
}
