import Foundation
import Logging
import Testing

@testable import MockAPNs

/// The app's side of token upload (`tokenUpload:`): a start push over HTTP/2 and TLS (curl) issues an update token,
/// and the mock POSTs it to a real local HTTP receiver, as the woken app would.
@Suite("Token upload end to end", .serialized)
struct TokenUploadEndToEndTests {
    /// A taxi start that asks for a token.
    static func startAPS(_ name: String = "Taxi") -> String {
        #"{"event":"start","timestamp":\#(Int(Date().timeIntervalSince1970)),"attributes-type":"mpushTaxiAttributes","#
            + #""attributes":{"appName":"\#(name)","appLogo":"logo"},"content-state":{"status":"1"},"#
            + #""alert":{"title":"Your ride"},"input-push-token":1}"#
    }

    /// The live-activity scenario without its rules, uploading to `url` (none when `nil`).
    static func scenario(uploadingTo url: String?, attempts: Int = 3, timeout: Duration = .seconds(5)) throws
        -> Scenario
    {
        var scenario = try LiveActivityEndToEndTests.scenario()
        scenario.tokenUpload = url.map {
            TokenUploadSettings(url: $0, headers: ["X-Provider-Key": "k1"], attempts: attempts, timeout: timeout)
        }
        return scenario
    }

    /// Starts a server for `scenario` logging into `capture`, uploading through `transport` (the core's default
    /// when `nil`), with its control API; stops both afterwards.
    static func withUploadServer<T>(
        _ scenario: Scenario, capture: LogCapture = LogCapture(), transport: (any TokenUploadTransport)? = nil,
        _ body: (MockAPNsServer, MockAPNsControlAPI) async throws -> T
    ) async throws -> T {
        var scenario = scenario
        scenario.listen.port = 0
        let logger = Logger(label: "mock-apns-upload-test") { _ in capture.handler() }
        let server = try await MockAPNsServer.start(scenario: scenario, logger: logger, tokenUploadTransport: transport)
        let control = try await MockAPNsControlAPI.start(server: server, port: 0, logger: logger)
        do {
            let result = try await body(server, control)
            try await control.shutdown()
            try await server.shutdown(gracePeriod: .seconds(1))
            return result
        } catch {
            try? await control.shutdown()
            try? await server.shutdown(gracePeriod: .seconds(1))
            throw error
        }
    }

    /// Starts an activity with a push to the taxi's push-to-start token; returns its id and update token.
    static func start(_ server: MockAPNsServer) async throws -> (id: String, token: String) {
        let answer = try await LiveActivityEndToEndTests.push(
            server, to: LiveActivityEndToEndTests.taxiStartToken, startAPS())
        #expect(answer.status == 200)
        let device = try #require(answer.device)
        #expect(device.kind == .started)
        return (try #require(device.activityID), try #require(device.updateToken))
    }

    /// The uploads recorded on activity `id`.
    static func uploads(_ server: MockAPNsServer, _ id: String) -> [TokenUpload] {
        server.engine.activities.activity(id: id)?.tokenUploads ?? []
    }

    @Test("a start push uploads the new update token once, as JSON with exactly the app's keys")
    func uploadsOnStart() async throws {
        try await UploadReceiver.with { receiver in
            try await Self.withUploadServer(try Self.scenario(uploadingTo: receiver.url)) { server, _ in
                let (id, token) = try await Self.start(server)
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                try await Task.sleep(for: .milliseconds(200))  // a second POST would have arrived by now
                let received = receiver.received
                #expect(received.count == 1)
                let post = try #require(received.first)
                #expect(post.contentType == "application/json")
                #expect(post.providerKey == "k1")
                let json = try #require(post.json)
                let keys = ["activityID", "attributesType", "token", "pushToStartToken", "event"]
                #expect(json.objectMembers?.map(\.0) == keys)
                #expect(json["activityID"]?.stringValue == id)
                #expect(json["attributesType"]?.stringValue == "mpushTaxiAttributes")
                #expect(json["token"]?.stringValue == token)
                #expect(json["pushToStartToken"]?.stringValue == LiveActivityEndToEndTests.taxiStartToken)
                #expect(json["event"]?.stringValue == "started")

                let uploads = Self.uploads(server, id)
                #expect(uploads.count == 1)
                #expect(uploads.first?.status == .delivered)
                #expect(uploads.first?.attempts == 1 && uploads.first?.httpStatus == 200)
                let upload = try #require(uploads.first)
                #expect(upload.json["status"]?.stringValue == "delivered")
                let readBack = TokenUpload(json: try JSONParser.parse(upload.json.jsonText), activityID: id)
                #expect(readBack?.json == upload.json, "the JSON reads back to the same upload (dates to the ms)")
                #expect(try await server.verify().passed)
            }
        }
    }

    @Test("a receiver that answers 503 twice, then 200: three attempts with the same body, recorded delivered")
    func retriesUntilDelivered() async throws {
        try await UploadReceiver.with(answer: { $0 <= 2 ? 503 : 200 }) { receiver in
            try await Self.withUploadServer(try Self.scenario(uploadingTo: receiver.url)) { server, _ in
                let (id, _) = try await Self.start(server)
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                let received = receiver.received
                #expect(received.count == 3)
                #expect(Set(received.map(\.body)).count == 1)
                let upload = try #require(Self.uploads(server, id).first)
                #expect(upload.status == .delivered)
                #expect(upload.attempts == 3 && upload.httpStatus == 200 && upload.error == nil)
                #expect(try await server.verify().passed)
            }
        }
    }

    @Test("a receiver that always answers 503: failed after 3 attempts, a log line, and POST /v1/verify fails")
    func alwaysFailing() async throws {
        let capture = LogCapture()
        try await UploadReceiver.with(answer: { _ in 503 }) { receiver in
            try await Self.withUploadServer(try Self.scenario(uploadingTo: receiver.url), capture: capture) {
                server, control in
                let (id, _) = try await Self.start(server)
                // Verify waits up to 5 s for the upload; an upload still pending then fails the verdict too, so the
                // first answer fails either way (in the full suite the three tries have taken longer than 5 s).
                let first = try await ControlCurl.call("POST", control, "/v1/verify")
                #expect(first.status == 200 && first.json?["passed"] == .bool(false), "\(first.text)")
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                #expect(receiver.received.count == 3)
                let upload = try #require(Self.uploads(server, id).first)
                #expect(upload.status == .failed && upload.attempts == 3 && upload.httpStatus == 503)
                let expected = "token upload (started) for activity \(id): to \(receiver.url) failed after 3 attempts: "
                    + "HTTP 503"
                let verify = try await ControlCurl.call("POST", control, "/v1/verify")
                #expect(verify.status == 200)
                let json = try #require(verify.json)
                #expect(json["passed"] == .bool(false))
                let item = try #require(json["items"]?.arrayValue?.first { $0["kind"]?.stringValue == "tokenUpload" })
                #expect("\(item["name"]?.stringValue ?? ""): \(item["summary"]?.stringValue ?? "")" == expected)
                #expect(
                    capture.lines(containing: "failed after 3 attempts: HTTP 503").count == 1, "\(capture.all)")
                let report = try await server.verify()
                #expect(report.description.contains("✗ \(expected)"), "\(report)")
            }
        }
    }

    @Test("nothing listening at the URL: connection refused on each attempt, recorded failed, verify fails")
    func notListening() async throws {
        let url = "http://127.0.0.1:\(try UploadReceiver.unusedPort())/la-tokens"
        let capture = LogCapture()
        try await Self.withUploadServer(try Self.scenario(uploadingTo: url, attempts: 2), capture: capture) {
            server, _ in
            let (id, _) = try await Self.start(server)
            await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
            let upload = try #require(Self.uploads(server, id).first)
            #expect(upload.status == .failed && upload.attempts == 2 && upload.httpStatus == nil)
            #expect(upload.error == "connection refused", "\(upload.error ?? "")")
            #expect(capture.lines(containing: "failed after 2 attempts: connection refused").count == 1)
            let report = try await server.verify()
            #expect(!report.passed)
            #expect(report.failures.map(\.kind) == [.tokenUpload])
        }
    }

    @Test("a receiver slower than the timeout: the try is cut at the timeout and recorded as no answer")
    func timesOut() async throws {
        try await UploadReceiver.with(delay: .seconds(3)) { receiver in
            let scenario = try Self.scenario(uploadingTo: receiver.url, attempts: 1, timeout: .milliseconds(200))
            try await Self.withUploadServer(scenario) { server, _ in
                let (id, _) = try await Self.start(server)
                let started = ContinuousClock.now
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                #expect(ContinuousClock.now - started < .seconds(2))
                let upload = try #require(Self.uploads(server, id).first)
                #expect(upload.status == .failed && upload.attempts == 1)
                #expect(upload.error == "no answer within 200ms", "\(upload.error ?? "")")
            }
        }
    }

    @Test("PUT /v1/scenario with tokenUpload: GET /v1/scenario shows it, and the next start uploads")
    func loadedAtRunTime() async throws {
        try await UploadReceiver.with { receiver in
            try await Self.withUploadServer(try Self.scenario(uploadingTo: nil)) { server, control in
                var document = try #require(try await server.scenario().document.objectMembers)
                document.removeAll { $0.0 == "limits" }
                document.append(("tokenUpload", TokenUploadSettings(url: receiver.url, attempts: 2).scenarioJSON))
                let put = try await ControlCurl.call(
                    "PUT", control, "/v1/scenario", body: JSONValue.object(document).jsonText)
                #expect(put.status == 200, "\(put.text)")
                let shown = try await ControlCurl.call("GET", control, "/v1/scenario")
                #expect(shown.json?["tokenUpload"]?["url"]?.stringValue == receiver.url)
                #expect(shown.json?["tokenUpload"]?["attempts"] == .number("2"))
                let (id, _) = try await Self.start(server)
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                #expect(receiver.received.count == 1)
                #expect(Self.uploads(server, id).first?.status == .delivered)
            }
        }
    }

    @Test("without tokenUpload: a start uploads nothing and records no upload")
    func noUploadWithoutSetting() async throws {
        try await UploadReceiver.with { receiver in
            try await Self.withUploadServer(try Self.scenario(uploadingTo: nil)) { server, _ in
                let (id, _) = try await Self.start(server)
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.received.isEmpty)
                #expect(Self.uploads(server, id).isEmpty)
                #expect(server.engine.tokenUploads.pendingCount == 0)
            }
        }
    }

    @Test("a receiver that takes 2 s does not hold the start push's answer")
    func slowReceiver() async throws {
        try await UploadReceiver.with(delay: .seconds(2)) { receiver in
            try await Self.withUploadServer(try Self.scenario(uploadingTo: receiver.url)) { server, _ in
                // Warm up curl and the connection path, so the timed push measures the server.
                _ = try await Self.start(server)
                let started = ContinuousClock.now
                let (id, _) = try await Self.start(server)
                let took = ContinuousClock.now - started
                #expect(took < .milliseconds(1500), "the start push took \(took)")
                #expect(Self.uploads(server, id).first?.status == .pending)
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                #expect(Self.uploads(server, id).first?.status == .delivered)
            }
        }
    }

    @Test("one activity's uploads go out in order: a rotation waits for the start's retry")
    func inOrderPerActivity() async throws {
        try await UploadReceiver.with(answer: { $0 == 1 ? 503 : 200 }) { receiver in
            try await Self.withUploadServer(try Self.scenario(uploadingTo: receiver.url)) { server, _ in
                let (id, _) = try await Self.start(server)
                var rotated = try #require(server.engine.activities.activity(id: id))
                rotated.updateToken = String(repeating: "ab", count: 80)
                server.engine.tokenIssued(rotated, event: .rotated)
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                let events = receiver.received.compactMap { $0.json?["event"]?.stringValue }
                #expect(events == ["started", "started", "rotated"])
                #expect(receiver.received.last?.json?["token"]?.stringValue == rotated.updateToken)
                #expect(Self.uploads(server, id).map(\.status) == [.delivered, .delivered])
                #expect(Self.uploads(server, id).map(\.event) == [.started, .rotated])
            }
        }
    }

    @Test("POST /v1/reset drops the activities with their uploads, pending ones included")
    func resetDropsUploads() async throws {
        try await UploadReceiver.with(delay: .milliseconds(500)) { receiver in
            try await Self.withUploadServer(try Self.scenario(uploadingTo: receiver.url)) { server, control in
                _ = try await Self.start(server)
                let reset = try await ControlCurl.call("POST", control, "/v1/reset")
                #expect(reset.status == 200)
                await server.engine.tokenUploads.waitUntilSettled(timeout: .seconds(30))
                #expect(server.engine.activities.activities.isEmpty)
                #expect(try await server.verify().passed)
            }
        }
    }

    @Test("over the queue limit an upload is recorded failed with 'upload queue full', never kept")
    func queueLimit() async throws {
        try await UploadReceiver.with(delay: .milliseconds(300)) { receiver in
            let registry = ActivityRegistry()
            let uploader = TokenUploader(registry: registry, clock: SystemClock(), queueLimit: 2)
            let capture = LogCapture()
            uploader.useLogger(Logger(label: "test") { _ in capture.handler() })
            let settings = TokenUploadSettings(url: receiver.url)
            var ids = [String]()
            for index in 0..<3 {
                let activity = registry.start(
                    LiveActivity(
                        id: "", attributesType: "T", attributes: .object([]), contentState: .object([]),
                        updateToken: "", pushToStartToken: nil, startedAt: Date(), timestamp: Double(index)))
                ids.append(activity.id)
                uploader.enqueue(activity, event: .started, settings: settings)
            }
            let third = try #require(registry.activity(id: ids[2])?.tokenUploads.first)
            #expect(third.status == .failed && third.error == "upload queue full" && third.attempts == 0)
            #expect(uploader.pendingCount == 2)
            #expect(capture.lines(containing: "token upload queue full (2 waiting)").count == 1, "\(capture.all)")
            await uploader.waitUntilSettled()
            #expect(receiver.received.count == 2)
            #expect(receiver.received.allSatisfy { $0.json?["pushToStartToken"] == .null })
            await uploader.shutdown()
        }
    }
}

/// `mock-apns run` with `tokenUpload:`: a broken token endpoint fails the run, as a broken APNs answer would.
@Suite("Token upload under mock-apns run")
struct TokenUploadRunTests {
    /// `mock-apns run` of a taxi scenario uploading to `url`, its COMMAND a start push: its status and its output.
    static func runStartPush(uploadingTo url: String, attempts: Int) async throws -> (status: Int32, text: String) {
        let folder = try RunTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try RunTestSupport.write(
            """
            activityTypes:
              mpushTaxiAttributes:
                attributes: { appName: String, appLogo: String }
                contentState: { status: String? }
            devices:
              - token: \(LiveActivityEndToEndTests.taxiStartToken)
                kind: push-to-start
                attributesType: mpushTaxiAttributes
            tokenUpload: { url: "\(url)", attempts: \(attempts), timeout: 1s }
            """, "upload.yaml", in: folder)
        let result = try await RunTestSupport.mockAPNs([
            "run", scenario, "--", "mock-apns", "push", LiveActivityEndToEndTests.taxiStartToken,
            "--live-activity", "start", "--attributes-type", "mpushTaxiAttributes",
            "--attributes", #"{"appName":"Taxi","appLogo":"logo"}"#, "--content-state", #"{"status":"1"}"#,
            "--alert", "Your ride",
        ])
        return (result.status, result.output + result.errors)
    }

    @Test("run s.yaml -- mock-apns push --live-activity start: an unreachable token endpoint fails the run")
    func runFailsOnBrokenEndpoint() async throws {
        let url = "http://127.0.0.1:\(try UploadReceiver.unusedPort())/la-tokens"
        let (status, text) = try await Self.runStartPush(uploadingTo: url, attempts: 2)
        #expect(status == 1, "\(text)")
        #expect(text.contains("✗ token upload (started) for activity "), "\(text)")
        #expect(text.contains("to \(url) failed after 2 attempts: connection refused"), "\(text)")
    }
}
