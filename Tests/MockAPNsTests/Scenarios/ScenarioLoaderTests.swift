import Foundation
import Testing

@testable import MockAPNs

@Suite("ScenarioLoader")
struct ScenarioLoaderTests {
    /// The package root: the nearest folder above this file that holds Package.swift.
    static let repositoryRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    static let scenariosFolder = repositoryRoot.appendingPathComponent("scenarios")
    static let certsFolder = repositoryRoot.appendingPathComponent("certs")
    static let exampleFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scenariosFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }()

    static let token64 = "c9f6182179b86b50985ef7e95099ada7a34045dc746158c363b6ca3c2e708aad"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Parses `yaml` as if it were a file in scenarios/, so `../certs/...` paths work.
    func parse(_ yaml: String) throws(ScenarioError) -> Scenario {
        try ScenarioLoader.parse(
            yaml: yaml,
            sourcePath: "scenarios/test.yaml",
            baseDirectory: Self.scenariosFolder.path,
            now: Self.now
        )
    }

    /// Writes `yaml` to a temporary file, loads it, and returns the error with the file's path.
    func loadError(_ yaml: String) throws -> (error: ScenarioError, path: String)? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-tests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try ScenarioLoader.load(file: file.path, now: Self.now)
        } catch {
            return (error, file.path)
        }
        Issue.record("the scenario loaded without an error")
        return nil
    }

    var testKey: String { Self.certsFolder.appendingPathComponent("AuthKey_TESTKEY001.pub.pem").path }

    // MARK: - Example files

    @Test("the scenarios folder holds the documented examples")
    func examplesArePresent() {
        for name in [
            "default.yaml", "strict.yaml", "token-refresh.yaml", "unregistered-after-first.yaml", "live-activity.yaml",
            "faults.yaml",
        ] {
            #expect(Self.exampleFiles.contains(name), "missing scenarios/\(name)")
        }
    }

    @Test("every example scenario loads", arguments: exampleFiles)
    func exampleLoads(name: String) throws {
        let scenario = try ScenarioLoader.load(file: Self.scenariosFolder.appendingPathComponent(name).path)
        #expect(scenario.name == String(name.dropLast(".yaml".count)))
    }

    @Test("every YAML example in scenarios/README.md loads")
    func readmeExamplesLoad() throws {
        let readme = try String(contentsOf: Self.scenariosFolder.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```yaml\n").dropFirst().map {
            $0.components(separatedBy: "```").first ?? ""
        }
        #expect(!blocks.isEmpty)
        for block in blocks {
            #expect(throws: Never.self, "\(block)") { _ = try parse(block) }
        }
    }

    @Test("default.yaml is a lenient sandbox on 127.0.0.1:2197 that trusts the test key")
    func defaultExample() throws {
        let scenario = try ScenarioLoader.load(file: Self.scenariosFolder.appendingPathComponent("default.yaml").path)
        #expect(scenario.world.environment == .sandbox)
        #expect(scenario.world.devicePolicy == .lenient)
        #expect(scenario.world.keyPolicy == .lenient)
        #expect(scenario.listen.host == "127.0.0.1")
        #expect(scenario.listen.port == 2197)
        #expect(scenario.world.keys["TESTKEY001"]?.teamID == "TESTTEAM01")
        #expect(scenario.rules.isEmpty)
    }

    @Test("default.yaml describes the same world as the embedded default")
    func defaultExampleMatchesEmbeddedDefault() throws {
        let file = try ScenarioLoader.load(file: Self.scenariosFolder.appendingPathComponent("default.yaml").path)
        let embedded = Scenario.embeddedDefault()
        #expect(file.name == embedded.name)
        #expect(file.world.environment == embedded.world.environment)
        #expect(file.world.devicePolicy == embedded.world.devicePolicy)
        #expect(file.world.keyPolicy == embedded.world.keyPolicy)
        #expect(file.world.keys.mapValues(\.teamID) == embedded.world.keys.mapValues(\.teamID))
        #expect(file.world.keys["TESTKEY001"]?.publicKey.pem == embedded.world.keys["TESTKEY001"]?.publicKey.pem)
        #expect(file.world.devices.isEmpty && embedded.world.devices.isEmpty)
        #expect(file.rules.isEmpty && embedded.rules.isEmpty)
        #expect(file.listen == embedded.listen)
        #expect(file.journalCapacity == embedded.journalCapacity)
        #expect(file.world.fidelity == embedded.world.fidelity)
    }

    @Test("unregistered-after-first.yaml scripts 410 on the 2nd push and 429 on the 3rd")
    func unregisteredAfterFirstExample() throws {
        let path = Self.scenariosFolder.appendingPathComponent("unregistered-after-first.yaml").path
        let scenario = try ScenarioLoader.load(file: path)
        #expect(scenario.rules.map(\.nth) == [2, 3])
        guard case .respond(410, "Unregistered", .some, nil) = scenario.rules[0].action,
            case .respond(429, "TooManyRequests", nil, nil) = scenario.rules[1].action
        else {
            Issue.record("unexpected actions: \(scenario.rules.map(\.action))")
            return
        }
    }

    // MARK: - Fields

    @Test("an empty document is the default lenient sandbox named after the file")
    func emptyDocument() throws {
        for text in ["", "# only a comment\n", "~\n", "---\n"] {
            let scenario = try parse(text)
            #expect(scenario.name == "test")
            #expect(scenario.sourcePath == "scenarios/test.yaml")
            #expect(scenario.world.environment == .sandbox)
            #expect(scenario.world.devicePolicy == .lenient)
            #expect(scenario.world.keyPolicy == .lenient)
            #expect(scenario.world.keys.isEmpty && scenario.world.devices.isEmpty && scenario.rules.isEmpty)
            #expect(scenario.listen == ListenSettings())
            #expect(scenario.journalCapacity == 100_000)
        }
        #expect(try ScenarioLoader.parse(yaml: "", sourcePath: nil, baseDirectory: "/").name == "scenario")
    }

    @Test("name, environment, mode and the unknownDevices/unknownKeys overrides map to the world")
    func topLevelFields() throws {
        let scenario = try parse(
            """
            name: ci run
            environment: production
            mode: strict
            unknownDevices: accept
            journal:
              capacity: 50
            """
        )
        #expect(scenario.name == "ci run")
        #expect(scenario.world.environment == .production)
        #expect(scenario.world.devicePolicy == .lenient)
        #expect(scenario.world.keyPolicy == .strict)
        #expect(scenario.journalCapacity == 50)
        #expect(try parse("environment: development").world.environment == .sandbox)
        #expect(try parse("mode: lenient\nunknownKeys: reject").world.keyPolicy == .strict)
    }

    @Test("listen settings map and their paths resolve against the scenario's folder")
    func listenFields() throws {
        let scenario = try parse(
            """
            listen:
              host: 0.0.0.0
              port: 0
              cleartextPort: 2198
              certificate: ../certs/server.pem
              privateKey: ../certs/server.key
              ca: ../certs/ca.pem
              requestClientCertificate: false
            """
        )
        #expect(scenario.listen.host == "0.0.0.0")
        #expect(scenario.listen.port == 0)
        #expect(scenario.listen.cleartextPort == 2198)
        #expect(scenario.listen.certificateFile == Self.certsFolder.appendingPathComponent("server.pem").path)
        #expect(scenario.listen.privateKeyFile == Self.certsFolder.appendingPathComponent("server.key").path)
        #expect(scenario.listen.caFile == Self.certsFolder.appendingPathComponent("ca.pem").path)
        #expect(scenario.listen.requestClientCertificate == false)
    }

    @Test("keys load from a public key file, a .p8 file or inline PEM, with environment and topics")
    func keyFields() throws {
        let pem = try String(
            contentsOf: Self.certsFolder.appendingPathComponent("AuthKey_OTHERKEY01.pub.pem"),
            encoding: .utf8
        )
        let indented = pem.split(separator: "\n").map { "      \($0)" }.joined(separator: "\n")
        let scenario = try parse(
            """
            keys:
              - teamID: TESTTEAM01
                keyID: TESTKEY001
                publicKey: ../certs/AuthKey_TESTKEY001.pub.pem
                environment: production
                topics: [com.example.app, com.example.other]
              - teamID: TESTTEAM01
                keyID: TESTKEY002
                p8: ../certs/AuthKey_TESTKEY001.p8
              - teamID: OTHERTEAM1
                keyID: OTHERKEY01
                pem: |
            \(indented)
            """
        )
        #expect(scenario.world.keys.count == 3)
        let first = try #require(scenario.world.keys["TESTKEY001"])
        #expect(first.teamID == "TESTTEAM01")
        #expect(first.environment == .production)
        #expect(first.topics == ["com.example.app", "com.example.other"])
        let second = try #require(scenario.world.keys["TESTKEY002"])
        #expect(second.environment == nil)
        #expect(second.topics.isEmpty)
        #expect(scenario.world.keys["OTHERKEY01"]?.teamID == "OTHERTEAM1")
    }

    @Test("apps map by bundle id with an optional team")
    func appFields() throws {
        let scenario = try parse(
            """
            apps:
              - bundleID: com.example.app
                teamID: TESTTEAM01
              - bundleID: com.example.other
            """
        )
        #expect(scenario.world.apps["com.example.app"] == AppRecord(bundleID: "com.example.app", teamID: "TESTTEAM01"))
        #expect(scenario.world.apps["com.example.other"] == AppRecord(bundleID: "com.example.other"))
    }

    @Test("devices map token (lower-cased), app, environment, kind, and state with since")
    func deviceFields() throws {
        let upper = "AB" + String(repeating: "0", count: 158)
        let scenario = try parse(
            """
            devices:
              - token: \(upper)
                app: com.example.app
                environment: production
                kind: live-activity
              - token: "\(String(repeating: "1", count: 64))"
                kind: push-to-start
                state: unregistered
                since: 2026-11-01T08:00:00Z
              - token: \(String(repeating: "2", count: 64))
                kind: voip
                state: expired
                since: 1790000000
              - token: \(String(repeating: "3", count: 64))
                state: unregistered
              - token: \(String(repeating: "4", count: 64))
                state: active
            """
        )
        let devices = scenario.world.devices
        #expect(devices.count == 5)
        let first = try #require(devices[upper.lowercased()])
        #expect(first.token == upper.lowercased())
        #expect(first.bundleID == "com.example.app")
        #expect(first.environment == .production)
        #expect(first.kind == .liveActivity)
        #expect(first.unregisteredAt == nil && first.expiredAt == nil)

        let second = try #require(devices[String(repeating: "1", count: 64)])
        #expect(second.kind == .pushToStart)
        #expect(second.unregisteredAt == ISO8601DateFormatter().date(from: "2026-11-01T08:00:00Z"))
        #expect(second.environment == nil && second.bundleID == nil)

        let third = try #require(devices[String(repeating: "2", count: 64)])
        #expect(third.kind == .voip)
        #expect(third.expiredAt == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(third.unregisteredAt == nil)

        #expect(devices[String(repeating: "3", count: 64)]?.unregisteredAt == Self.now)
        #expect(devices[String(repeating: "4", count: 64)]?.kind == .app)
    }

    @Test("a respond rule maps to RuleAction.respond; a known reason supplies its status")
    func respondRules() throws {
        let scenario = try parse(
            """
            rules:
              - respond: { reason: Unregistered, timestamp: 2026-11-01T08:00:00Z }
              - name: ok but slow
                respond: { status: 200, delay: 250ms }
              - respond: { status: 418, reason: ImATeapot, delay: 1.5s }
              - respond: { status: 400, reason: BadDeviceToken }
                delay: 2s
              - respond: { reason: ServiceUnavailable, delay: 1m }
            """
        )
        let actions = scenario.rules.map(\.action)
        #expect(scenario.rules.map(\.name) == ["rule 1", "ok but slow", "rule 3", "rule 4", "rule 5"])
        guard case .respond(410, "Unregistered", let timestamp, nil) = actions[0] else {
            Issue.record("rule 1: \(actions[0])")
            return
        }
        #expect(timestamp == ISO8601DateFormatter().date(from: "2026-11-01T08:00:00Z"))
        guard case .respond(200, nil, nil, .milliseconds(250)) = actions[1],
            case .respond(418, "ImATeapot", nil, .milliseconds(1500)) = actions[2],
            case .respond(400, "BadDeviceToken", nil, .seconds(2)) = actions[3],
            case .respond(503, "ServiceUnavailable", nil, .seconds(60)) = actions[4]
        else {
            Issue.record("unexpected actions: \(actions)")
            return
        }
    }

    @Test("fault rules map every RuleFault with an optional delay; nth and times map")
    func faultRules() throws {
        let scenario = try parse(
            """
            rules:
              - fault: no-response
              - fault: reset-stream
                delay: 2s
                nth: 3
              - fault: goaway
                times: 1
              - fault: close-connection
            """
        )
        guard case .fault(.noResponse, nil) = scenario.rules[0].action,
            case .fault(.resetStream, .seconds(2)) = scenario.rules[1].action,
            case .fault(.goaway, nil) = scenario.rules[2].action,
            case .fault(.closeConnection, nil) = scenario.rules[3].action
        else {
            Issue.record("unexpected actions: \(scenario.rules.map(\.action))")
            return
        }
        #expect(scenario.rules.map(\.nth) == [nil, 3, nil, nil])
        #expect(scenario.rules.map(\.times) == [nil, nil, 1, nil])
    }

    @Test("match maps token (lower-cased), topic, push type, headers and payload values as JSON")
    func matchFields() throws {
        let scenario = try parse(
            """
            rules:
              - match:
                  token: \(Self.token64.uppercased())
                  topic: com.example.app.push-type.liveactivity
                  pushType: liveactivity
                  headers: { APNs-Priority: 5, apns-collapse-id: order-1 }
                  payload:
                    aps.event: end
                    aps.badge: 3
                    aps.relevance-score: 0.5
                    aps.content-available: true
                    order.id: "42"
                    order.items: [1, two]
                    order.driver: { name: Ana, rating: 4.9 }
                    order.note: null
                respond: { status: 200 }
            """
        )
        let match = scenario.rules[0].match
        #expect(match.token == Self.token64)
        #expect(match.topic == "com.example.app.push-type.liveactivity")
        #expect(match.pushType == "liveactivity")
        #expect(match.headers == ["apns-priority": "5", "apns-collapse-id": "order-1"])
        #expect(match.payload["aps.event"] == .string("end"))
        #expect(match.payload["aps.badge"] == .number("3"))
        #expect(match.payload["aps.relevance-score"] == .number("0.5"))
        #expect(match.payload["aps.content-available"] == .bool(true))
        #expect(match.payload["order.id"] == .string("42"))
        #expect(match.payload["order.items"] == .array([.number("1"), .string("two")]))
        #expect(match.payload["order.driver"] == .object([("name", .string("Ana")), ("rating", .number("4.9"))]))
        #expect(match.payload["order.note"] == .null)
    }

    @Test("every fidelity field maps by its name; reasons by their wire name")
    func fidelityFields() throws {
        let scenario = try parse(
            """
            fidelity:
              singleStreamUntilAuthenticated: false
              singleStreamAfterError: false
              maxConcurrentStreams: 500
              methodCheckedBeforePath: false
              topicSuffixMismatch: TopicDisallowed
              backgroundPriorityTen: BadPriority
              certificateTopicNotAllowed: TopicDisallowed
              keyTopicNotAllowed: BadTopic
              invalidJSONPayload: PayloadEmpty
              acceptStringIssuedAt: false
              maxFutureIssuedAt: 60
              providerTokenLifetime: 120
              providerTokenMinimumInterval: 30
              badEnvironmentKeyReason: BadEnvironmentKeyIdInToken
              acceptUppercaseDeviceTokens: false
              missingPushType: reject
              certificateEnvironmentMismatch: reject
              sandboxUniqueID: false
            """
        )
        let fidelity = scenario.world.fidelity
        #expect(fidelity.singleStreamUntilAuthenticated == false)
        #expect(fidelity.singleStreamAfterError == false)
        #expect(fidelity.maxConcurrentStreams == 500)
        #expect(fidelity.methodCheckedBeforePath == false)
        #expect(fidelity.topicSuffixMismatch == .topicDisallowed)
        #expect(fidelity.backgroundPriorityTen == .badPriority)
        #expect(fidelity.certificateTopicNotAllowed == .topicDisallowed)
        #expect(fidelity.keyTopicNotAllowed == .badTopic)
        #expect(fidelity.invalidJSONPayload == .payloadEmpty)
        #expect(fidelity.acceptStringIssuedAt == false)
        #expect(fidelity.maxFutureIssuedAt == 60)
        #expect(fidelity.providerTokenLifetime == 120)
        #expect(fidelity.providerTokenMinimumInterval == 30)
        #expect(fidelity.badEnvironmentKeyReasonName == "BadEnvironmentKeyIdInToken")
        #expect(fidelity.acceptUppercaseDeviceTokens == false)
        #expect(fidelity.missingPushTypeIsAlert == false)
        #expect(fidelity.certificateEnvironmentMismatch == .reject)
        #expect(fidelity.sandboxUniqueID == false)

        let defaults = try parse("fidelity: {}").world.fidelity
        #expect(defaults == FidelitySettings())
        #expect(defaults.backgroundPriorityTen == nil, "APNs answers 200: accepted by default")
        #expect(try parse("fidelity: { backgroundPriorityTen: accept }").world.fidelity.backgroundPriorityTen == nil)
    }

    @Test("streamLimitAnnounceInterval takes a duration from 0ms to 60s, 1s by default")
    func streamLimitAnnounceInterval() throws {
        #expect(FidelitySettings().streamLimitAnnounceInterval == .seconds(1))
        #expect(
            try parse("fidelity: { streamLimitAnnounceInterval: 250ms }").world.fidelity.streamLimitAnnounceInterval
                == .milliseconds(250))
        #expect(try parse("fidelity: { streamLimitAnnounceInterval: 0ms }").world.fidelity.streamLimitAnnounceInterval
            == .zero)
        #expect(try parse("fidelity: { streamLimitAnnounceInterval: 1m }").world.fidelity.streamLimitAnnounceInterval
            == .seconds(60))
        let tooLong = try #require(try loadError("fidelity:\n  streamLimitAnnounceInterval: 61s\n"))
        #expect(tooLong.error.field == "fidelity.streamLimitAnnounceInterval")
        #expect(tooLong.error.message == "must be at most 1m, got '61s'")
        let huge = try #require(try loadError("fidelity:\n  streamLimitAnnounceInterval: 99999999999999999999h\n"))
        #expect(huge.error.message == "must be at most 1m, got '99999999999999999999h'")
        let negative = try #require(try loadError("fidelity:\n  streamLimitAnnounceInterval: -1s\n"))
        #expect(negative.error.message == "must not be negative, got '-1s'")
        let bare = try #require(try loadError("fidelity:\n  streamLimitAnnounceInterval: 5\n"))
        #expect(bare.error.message.hasPrefix("a duration needs a unit"))
    }

    // MARK: - Errors

    @Test("the error description reads file:line:column: field: message and leaves out what is unknown")
    func errorDescription() {
        let full = ScenarioError(
            file: "scenarios/x.yaml",
            line: 12,
            column: 10,
            field: "devices[2].token",
            message: "bad"
        )
        #expect(full.description == "scenarios/x.yaml:12:10: devices[2].token: bad")
        #expect(ScenarioError(file: "x.yaml", field: "", message: "bad").description == "x.yaml: bad")
        #expect(ScenarioError(line: 3, column: 1, field: "name", message: "bad").description == "3:1: name: bad")
        #expect(ScenarioError(message: "bad").description == "bad")
    }

    @Test("an unknown field is an error at its key that lists the known fields and suggests the likely one")
    func unknownField() throws {
        let (error, path) = try #require(try loadError("environment: sandbox\ndevcies: []\n"))
        #expect(error.file == path)
        #expect(error.line == 2)
        #expect(error.column == 1)
        #expect(error.field == "devcies")
        #expect(
            error.message.hasPrefix(
                "unknown field 'devcies' (did you mean 'devices'?); known fields: name, environment"
            )
        )
        #expect(error.description.hasPrefix("\(path):2:1: devcies: unknown field"))

        let nested = try #require(try loadError("devices:\n  - token: abcd\n    kinds: app\n"))
        #expect(nested.error.field == "devices[0].kinds")
        #expect(nested.error.line == 3 && nested.error.column == 5)
        #expect(nested.error.message.contains("known fields: token, app, environment, kind, state, since"))
    }

    @Test("a value of the wrong type is an error naming the expected type")
    func wrongType() throws {
        let (error, _) = try #require(try loadError("listen:\n  port: twenty\n"))
        #expect(error.field == "listen.port")
        #expect(error.line == 2 && error.column == 9)
        #expect(error.message == "expected an integer, got 'twenty'")

        let quoted = try #require(try loadError("listen:\n  port: \"2197\"\n"))
        #expect(quoted.error.message == "expected an integer, got the string \"2197\" (write numbers without quotes)")

        let list = try #require(try loadError("devices:\n  token: abcd\n"))
        #expect(list.error.field == "devices")
        #expect(list.error.message == "expected a list, got a mapping")

        let bool = try #require(try loadError("listen: { requestClientCertificate: maybe }\n"))
        #expect(bool.error.message == "expected true or false, got 'maybe'")

        let document = try #require(try loadError("- a\n- b\n"))
        #expect(document.error.field == "")
        #expect(document.error.message.hasPrefix("a scenario is a mapping of fields"))
    }

    @Test("a device token with an odd number of digits is an error that gives the count")
    func oddLengthToken() throws {
        let token = String(Self.token64.dropLast())
        let (error, _) = try #require(try loadError("devices:\n  - token: abcd\n  - token: \(token)\n"))
        #expect(error.field == "devices[1].token")
        #expect(error.line == 3 && error.column == 12)
        #expect(error.message == "must be an even number of hex digits, at least 2, got 63")
    }

    @Test("a device token longer than the validator takes (1024 digits) is an error, not a device never reachable")
    func overlongToken() throws {
        let longest = String(repeating: "ab", count: DeviceToken.maximumLength / 2)
        let scenario = try parse("devices:\n  - token: \(longest)\n")
        #expect(scenario.world.devices[longest] != nil)
        let (error, _) = try #require(try loadError("devices:\n  - token: \(longest)ab\n"))
        #expect(error.field == "devices[0].token")
        #expect(error.message == "must be at most 1024 hex digits (the longest APNs takes), got 1026")
    }

    @Test("a device token with a non-hex character is an error that points at it")
    func nonHexToken() throws {
        let (error, _) = try #require(try loadError("devices:\n  - token: abcdxg\n"))
        #expect(error.field == "devices[0].token")
        #expect(error.line == 2 && error.column == 12)
        #expect(error.message == "must be hex digits (0-9, a-f); found 'x' at character 5")

        let rule = try #require(try loadError("rules:\n  - match: { token: zz }\n    respond: { status: 200 }\n"))
        #expect(rule.error.field == "rules[0].match.token")
    }

    @Test("an unknown environment is an error naming the allowed ones")
    func badEnvironment() throws {
        let (error, _) = try #require(try loadError("environment: staging\n"))
        #expect(error.field == "environment")
        #expect(error.line == 1 && error.column == 14)
        #expect(error.message == "must be sandbox (or development) or production; got 'staging'")

        let device = try #require(try loadError("devices:\n  - token: abcd\n    environment: prod-eu\n"))
        #expect(device.error.field == "devices[0].environment")
    }

    @Test("a duration without a unit is an error asking for one")
    func durationWithoutUnit() throws {
        let (error, _) = try #require(try loadError("rules:\n  - respond:\n      status: 200\n      delay: 250\n"))
        #expect(error.field == "rules[0].respond.delay")
        #expect(error.line == 4 && error.column == 14)
        #expect(error.message == "a duration needs a unit: ms, s, m or h (for example 250ms or 250s)")

        let word = try #require(try loadError("rules:\n  - fault: goaway\n    delay: soon\n"))
        #expect(word.error.field == "rules[0].delay")
        #expect(word.error.message == "expected a duration such as 250ms, 2s, 1.5s, 1m or 1h; got 'soon'")
    }

    @Test("a rule with both respond and fault is an error")
    func respondAndFault() throws {
        let (error, _) = try #require(try loadError("rules:\n  - respond: { status: 200 }\n    fault: goaway\n"))
        #expect(error.field == "rules[0].fault")
        #expect(error.line == 3 && error.column == 12)
        #expect(error.message == "give respond or fault, not both")
    }

    @Test("a rule with neither respond nor fault is an error at the rule")
    func neitherRespondNorFault() throws {
        let (error, _) = try #require(try loadError("rules:\n  - name: nothing\n    nth: 2\n"))
        #expect(error.field == "rules[0]")
        #expect(error.line == 2 && error.column == 5)
        #expect(error.message.hasPrefix("a rule needs what to do: give respond"))
    }

    @Test("an unknown reason needs an explicit status, and the error says so")
    func unknownReasonWithoutStatus() throws {
        let (error, _) = try #require(try loadError("rules:\n  - respond:\n      reason: Gone\n"))
        #expect(error.field == "rules[0].respond.reason")
        #expect(error.line == 3 && error.column == 15)
        #expect(error.message.hasPrefix("'Gone' is not an APNs reason, so give its status too"))
        #expect(error.message.contains("Unregistered"))

        let fidelity = try #require(try loadError("fidelity:\n  topicSuffixMismatch: WrongTopic\n"))
        #expect(fidelity.error.field == "fidelity.topicSuffixMismatch")
        #expect(fidelity.error.message.hasPrefix("unknown reason 'WrongTopic'; known reasons: BadCollapseId"))
    }

    @Test("a missing key file is an error naming the field and the resolved path")
    func missingKeyFile() throws {
        let (error, path) = try #require(
            try loadError(
                "keys:\n  - teamID: TESTTEAM01\n    keyID: TESTKEY001\n    publicKey: keys/AuthKey_NOPE.pem\n"
            )
        )
        let expected = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(
            "keys/AuthKey_NOPE.pem"
        )
        #expect(error.field == "keys[0].publicKey")
        #expect(error.line == 4 && error.column == 16)
        #expect(error.message.hasPrefix("cannot read \(expected.path): "))

        let notAKey = try #require(
            try loadError("keys:\n  - teamID: TESTTEAM01\n    keyID: TESTKEY001\n    pem: hello\n")
        )
        #expect(notAKey.error.field == "keys[0].pem")
        #expect(notAKey.error.message.hasPrefix("the PEM text is not a usable P-256 key: "))

        let both = try #require(
            try loadError(
                "keys:\n  - teamID: TESTTEAM01\n    keyID: TESTKEY001\n    pem: a\n    p8: \(testKey)\n"
            )
        )
        #expect(both.error.message.hasPrefix("give exactly one of publicKey"))
    }

    @Test("invalid YAML syntax is an error at the line and column libyaml reports")
    func invalidSyntax() throws {
        let (error, path) = try #require(try loadError("name: a\nlisten:\n  port: 1\n bad: [\n"))
        #expect(error.file == path)
        #expect(error.line == 4)
        #expect(error.column != nil)
        #expect(error.field == "")
        #expect(error.message.hasPrefix("invalid YAML: "))

        let duplicate = try #require(try loadError("name: a\nname: b\n"))
        #expect(duplicate.error.line == 1)
        #expect(duplicate.error.message == "invalid YAML: the key 'name' appears more than once in this mapping")
    }

    @Test("a duplicate device token or key id is an error naming both lines")
    func duplicates() throws {
        let (error, _) = try #require(
            try loadError("devices:\n  - token: \(Self.token64)\n  - token: \(Self.token64.uppercased())\n")
        )
        #expect(error.field == "devices[1].token")
        #expect(error.line == 3)
        #expect(error.message == "duplicate device token; it is already given at line 2")

        let keys = try #require(
            try loadError(
                """
                keys:
                  - { teamID: TESTTEAM01, keyID: TESTKEY001, publicKey: \(testKey) }
                  - { teamID: TESTTEAM01, keyID: TESTKEY001, publicKey: \(testKey) }

                """
            )
        )
        #expect(keys.error.field == "keys[1].keyID")
        #expect(keys.error.line == 3)
        #expect(keys.error.message == "duplicate key id TESTKEY001; it is already given at line 2")
    }

    @Test("nth and times must be at least 1")
    func nthZero() throws {
        let (error, _) = try #require(try loadError("rules:\n  - nth: 0\n    respond: { status: 200 }\n"))
        #expect(error.field == "rules[0].nth")
        #expect(error.line == 2 && error.column == 10)
        #expect(error.message == "must be at least 1, got 0")

        let times = try #require(try loadError("rules:\n  - times: -1\n    fault: goaway\n"))
        #expect(times.error.field == "rules[0].times")
    }

    @Test("a key id or team id that is not 10 characters A-Z 0-9 is an error")
    func invalidKeyIDLength() throws {
        let (error, _) = try #require(
            try loadError("keys:\n  - teamID: TESTTEAM01\n    keyID: TESTKEY1\n    publicKey: \(testKey)\n")
        )
        #expect(error.field == "keys[0].keyID")
        #expect(error.line == 3 && error.column == 12)
        #expect(error.message == "a key id is 10 characters A-Z and 0-9 (like TESTKEY001), got 8: 'TESTKEY1'")

        let team = try #require(
            try loadError("keys:\n  - teamID: testteam01\n    keyID: TESTKEY001\n    publicKey: \(testKey)\n")
        )
        #expect(team.error.field == "keys[0].teamID")
        #expect(team.error.message == "a team id is 10 characters A-Z and 0-9 (like TESTTEAM01): 'testteam01'")
    }

    @Test("a missing scenario file is an error naming the file")
    func missingScenarioFile() {
        #expect {
            _ = try ScenarioLoader.load(file: "/nonexistent/scenario.yaml")
        } throws: { error in
            guard let error = error as? ScenarioError else { return false }
            return error.file == "/nonexistent/scenario.yaml"
                && error.message.hasPrefix("cannot read the scenario file")
        }
    }

    @Test("respond checks status against reason and timestamp against 410")
    func respondConsistency() throws {
        let success = try #require(try loadError("rules:\n  - respond: { status: 200, reason: Unregistered }\n"))
        #expect(success.error.field == "rules[0].respond.reason")
        let bare = try #require(try loadError("rules:\n  - respond: { status: 500 }\n"))
        #expect(bare.error.field == "rules[0].respond.status")
        let stamp = try #require(try loadError("rules:\n  - respond: { reason: BadTopic, timestamp: 0 }\n"))
        #expect(stamp.error.message == "timestamp is sent only with 410 answers; this one is 400")
        let fault = try #require(try loadError("rules:\n  - fault: explode\n"))
        #expect(
            fault.error.message == "must be one of: no-response, reset-stream, goaway, close-connection; got 'explode'"
        )
        let since = try #require(try loadError("devices:\n  - token: abcd\n    since: 0\n"))
        #expect(since.error.message == "since applies only to a device whose state is unregistered or expired")
    }
}
