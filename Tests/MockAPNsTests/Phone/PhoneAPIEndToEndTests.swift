import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// The phones at run time (issue 23 item 4): `GET /v1/phones[/{id}]`, `PATCH` of a phone and of an app on it
/// between pushes sent with curl, each change a `phone` record, `POST /v1/reset` back to the declared state, and
/// the same operations from the Swift client and the CLI.
@Suite("phone: the control API end to end", .serialized)
struct PhoneAPIEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        phones:
          alice:
            apps: { com.example.app: { state: background } }
          bob: { lowPowerMode: true }
        devices:
          - { token: \(t(70)), app: com.example.app, phone: alice }
          - { token: \(t(71)), kind: voip, phone: alice }
          - { token: \(t(72)), phone: bob }
          - { token: \(t(73)) }
        """

    @Test("lists the declared phones and each declared device's phone; finds a phone by its id or a token")
    func list() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { _, control in
            let list = try await ControlCurl.call("GET", control, "/v1/phones")
            #expect(list.status == 200 && list.json?["count"] == 3)
            let ids = list.json?["phones"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
            #expect(ids == ["alice", "bob", Self.t(73)])
            let alice = try await ControlCurl.call("GET", control, "/v1/phones/\(Self.t(71).uppercased())")
            #expect(alice.status == 200 && alice.json?["id"] == "alice")
            #expect(alice.json?["tokens"] == .array([.string(Self.t(70)), .string(Self.t(71))]))
            #expect(alice.json?["state"]?["online"] == true && alice.json?["declared"] == true)
            let lenient = try await ControlCurl.call("GET", control, "/v1/phones/\(Self.t(99))")
            #expect(lenient.status == 200 && lenient.json?["declared"] == false, "any token has a default phone")
            let unknown = try await ControlCurl.call("GET", control, "/v1/phones/carol")
            #expect(unknown.status == 404 && unknown.error?.hasPrefix("no phone 'carol'") == true)
        }
        let strict = try PhonePush.scenario(Self.world + "\nmode: strict\n")
        try await withControlServer(scenario: strict) { _, control in
            let unknown = try await ControlCurl.call("GET", control, "/v1/phones/\(Self.t(99))")
            #expect(unknown.status == 404, "in strict mode an undeclared token has no phone")
        }
    }

    @Test("state changes between pushes change what the phone does; each is a phone record with before and after")
    func changesBetweenPushes() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let first = try await PhonePush.send(server, to: Self.t(70), PhonePush.alert())
            #expect(first.kindAndRule == "shown alert-shown")
            let offline = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": false}"#)
            #expect(offline.status == 200 && offline.json?["state"]?["online"] == false)
            #expect(
                try await PhonePush.send(server, to: Self.t(70), PhonePush.alert()).kindAndRule
                    == "stored stored-offline")
            let record = try #require(server.journal.records().last { $0.kind == .phone })
            #expect(record.rawJSON?["phone"] == "alice")
            #expect(record.rawJSON?["before"] == .object([("online", .bool(true))]))
            #expect(record.rawJSON?["after"] == .object([("online", .bool(false))]))
            #expect(record.rawJSON?["sequence"] == .number(String(record.sequence)))
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": true}"#)

            let quit = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/\(Self.t(70))/apps/com.example.app", body: #"{"state": "forceQuit"}"#)
            #expect(quit.status == 200)
            let silent = try await PhonePush.send(
                server, to: Self.t(70), PhonePush.background, type: "background", priority: "5")
            #expect(silent.kindAndRule == "notLaunched background-force-quit")
            let appRecord = try #require(server.journal.records().last { $0.kind == .phone })
            #expect(appRecord.rawJSON?["app"] == "com.example.app")
            #expect(appRecord.rawJSON?["after"]?["apps"]?["com.example.app"] == .object([("state", "forceQuit")]))
            _ = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/alice/apps/com.example.app", body: #"{"state": "foreground"}"#)
            let open = try await PhonePush.send(
                server, to: Self.t(70), PhonePush.background, type: "background", priority: "5")
            #expect(open.kindAndRule == "launched background-foreground")

            let requests = try await ControlCurl.call("GET", control, "/v1/requests?q=kind:phone")
            #expect(requests.json?["count"] == 4)
            let stats = try await ControlCurl.call("GET", control, "/v1/stats")
            #expect(stats.json?["accepted"] == 4 && stats.json?["rejected"] == 0, "a phone record is not a request")
        }
    }

    @Test("the phone lists its notifications newest first after collapses, its badge and the push it holds")
    func notificationCenter() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let a = try await PhonePush.send(
                server, to: Self.t(70), PhonePush.alert(#""badge":2,"thread-id":"orders""#),
                extra: ["apns-collapse-id": "order-42"])
            let b = try await PhonePush.send(server, to: Self.t(70), #"{"aps":{"alert":"Second"}}"#)
            let c = try await PhonePush.send(
                server, to: Self.t(70), #"{"aps":{"alert":{"title":"Updated"},"badge":5}}"#,
                extra: ["apns-collapse-id": "order-42"])
            _ = try await PhonePush.send(server, to: Self.t(70), #"{"aps":{}}"#)
            #expect(c.device?.related == a.sequence)
            let held = try await PhonePush.send(
                server, to: Self.t(72), PhonePush.background, type: "background", priority: "5")
            #expect(held.kindAndRule == "held background-low-power")

            let phone = try await ControlCurl.call("GET", control, "/v1/phones/alice")
            let app = try #require(phone.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.app" })
            #expect(app["badge"] == 5 && app["notificationCount"] == 2)
            let listed = app["notifications"]?.arrayValue?.compactMap { $0["sequence"]?.unsignedValue }
            #expect(listed == [c.sequence, b.sequence], "the collapse replaced #\(a.sequence); newest first")
            #expect(app["notifications"]?.arrayValue?.first?["title"] == "Updated")
            #expect(app["notifications"]?.arrayValue?.last?["body"] == "Second")

            let bob = try await ControlCurl.call("GET", control, "/v1/phones/bob")
            let bobApp = try #require(bob.json?["apps"]?.arrayValue?.first)
            #expect(bobApp["held"]?["sequence"]?.unsignedValue == held.sequence)
            #expect(bobApp["held"]?["rule"] == "background-low-power")
            #expect(bob.json?["background"]?["pushesLastHour"] == 1)
            let power = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/bob", body: #"{"lowPowerMode": false}"#)
            let apps = try #require(power.json?["apps"]?.arrayValue)
            #expect(!apps.contains { $0["held"] != .null }, "the end of Low Power Mode releases it")
            let record = try #require(server.journal.records().last { $0.kind == .phone })
            #expect(
                record.rawJSON?["released"]
                    == .array([.object([("app", "com.example.app"), ("push", .number(String(held.sequence)))])]))
        }
    }

    @Test("bad changes are refused with a 400 naming the field or value, and change nothing")
    func badInput() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let field = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"offline": true}"#)
            #expect(
                field.status == 400 && field.error?.hasPrefix("offline: unknown field 'offline'") == true,
                "\(field.text)")
            let value = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/alice/apps/com.example.app", body: #"{"state": "quit"}"#)
            #expect(
                value.status == 400 && value.error?.hasPrefix("state: must be one of: foreground") == true,
                "\(value.text)")
            let type = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: #"{"online": "no"}"#)
            #expect(type.status == 400 && type.error?.contains("true or false") == true, "\(type.text)")
            let nested = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/alice",
                body: #"{"apps": {"com.example.app": {"settings": {"banner": false}}}}"#)
            #expect(nested.status == 400 && nested.error?.hasPrefix("apps.com.example.app.settings.banner") == true)
            let notJSON = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: "online: false")
            #expect(notJSON.status == 400 && notJSON.error?.contains("JSON object") == true)
            let unknown = try await ControlCurl.call("PATCH", control, "/v1/phones/carol", body: #"{"online": false}"#)
            #expect(unknown.status == 404)
            let range = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/alice/apps/com.example.app", body: #"{"voipFailures": -1}"#)
            #expect(range.status == 400)
            let spaced = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/alice/apps/com%20example", body: #"{"state": "forceQuit"}"#)
            #expect(spaced.status == 400 && spaced.error?.contains("not a bundle id") == true, "\(spaced.text)")
            let long = String(repeating: "a", count: BundleID.maximumLength + 1)
            let longBundle = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/alice/apps/\(long)", body: #"{"state": "forceQuit"}"#)
            #expect(longBundle.status == 400 && longBundle.error?.contains("at most 255 bytes") == true)
            #expect(longBundle.text.count < 400, "the answer quotes 64 characters of it, not all")
            let unnamed = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/alice", body: #"{"focus": {"name": " "}}"#)
            #expect(
                unnamed.status == 400 && unnamed.error?.contains("a Focus needs a name") == true, "\(unnamed.text)")
            for body in [#"{"online": null}"#, #"{"apps": {"com.example.app": {"state": null}}}"#] {
                let null = try await ControlCurl.call("PATCH", control, "/v1/phones/alice", body: body)
                #expect(null.status == 400 && null.error?.contains("null changes nothing") == true, "\(null.text)")
            }
            #expect(server.journal.records().allSatisfy { $0.kind != .phone }, "nothing changed, nothing recorded")
            let alice = try await ControlCurl.call("GET", control, "/v1/phones/alice")
            #expect(alice.json?["state"]?["online"] == true)
        }
    }

    @Test("in lenient mode a token longer than the APNs port takes has no phone: 404, nothing kept")
    func tooLongTokenHasNoPhone() async throws {
        try await withControlServer(scenario: try PhonePush.scenario("mode: lenient\n")) { server, control in
            let long = String(repeating: "ab", count: DeviceToken.maximumLength / 2 + 1)
            let answer = try await ControlCurl.call("PATCH", control, "/v1/phones/\(long)", body: #"{"online":false}"#)
            #expect(answer.status == 404, "\(answer.text.prefix(200))")
            let longest = String(repeating: "ab", count: DeviceToken.maximumLength / 2)
            let taken = try await ControlCurl.call("PATCH", control, "/v1/phones/\(longest)", body: #"{"online":false}"#)
            #expect(taken.status == 200, "the longest token a push may use still has its phone")
            #expect(server.engine.phones.phone(long) == nil)
        }
    }

    @Test("a reset puts every phone back as the scenario declares it")
    func reset() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/bob", body: #"{"lowPowerMode": false}"#)
            _ = try await ControlCurl.call("PATCH", control, "/v1/phones/\(Self.t(73))", body: #"{"locked": true}"#)
            #expect(try await ControlCurl.call("POST", control, "/v1/reset").status == 200)
            let bob = try await ControlCurl.call("GET", control, "/v1/phones/bob")
            #expect(bob.json?["state"]?["lowPowerMode"] == true)
            let implicit = try await ControlCurl.call("GET", control, "/v1/phones/\(Self.t(73))")
            #expect(implicit.json?["state"]?["locked"] == false)
            #expect(
                try await PhonePush.send(
                    server, to: Self.t(72), PhonePush.background, type: "background", priority: "5"
                ).device?.kind == .held)
        }
    }

    @Test("the Swift client and the in-process control answer the same; setPhone and setApp change a phone")
    func swiftAPI() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let client = MockAPNsControlClient(url: control.url)
            for target in [server as any MockAPNsControl, client] {
                try await target.setPhone("alice", online: false)
                #expect(try await target.phone(id: "alice")?.state.online == false)
                try await target.setPhone("alice", online: true)
                let quit = try await target.setApp("com.example.app", on: Self.t(70), state: .forceQuit)
                #expect(quit.state.app("com.example.app").state == .forceQuit)
                #expect(quit.apps.first { $0.bundleID == "com.example.app" }?.onPhone.state == .forceQuit)
                _ = try await target.updatePhoneApp(id: "alice", bundleID: "com.example.app", ["state": "background"])
                #expect(try await target.phones().map(\.id) == ["alice", "bob", Self.t(73)])
                #expect(try await target.phone(id: "carol") == nil)
                await #expect(throws: MockAPNsControlError.self) {
                    try await target.updatePhone(id: "alice", ["online": "maybe"])
                }
            }
            let shown = try await PhonePush.send(server, to: Self.t(70), PhonePush.alert())
            let fromClient = try #require(try await client.phone(id: "alice"))
            let inProcess = try #require(try await server.phone(id: "alice"))
            #expect(fromClient.json == inProcess.json)
            #expect(fromClient.apps.first?.notifications.first?.sequence == shown.sequence)
        }
    }

    @Test("mock-apns phone changes and shows a phone; mock-apns phones lists them")
    func commandLine() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            _ = try await PhonePush.send(server, to: Self.t(70), PhonePush.alert())
            let url = control.url
            let offline = try await CLITests.run(["phone", "alice", "--offline", "--control-url", url])
            #expect(offline.status == 0, "\(offline.errors)")
            #expect(offline.output.hasPrefix("phone alice (declared): tokens "), "\(offline.output)")
            #expect(offline.output.contains("offline, unlocked, Low Power Mode off, no Focus"))
            #expect(offline.output.contains("\"Order ready\" / \"On its way\""))
            let quit = try await CLITests.run([
                "phone", "alice", "--app", "com.example.app", "--state", "forceQuit", "--json", "--control-url",
                url,
            ])
            #expect(quit.status == 0, "\(quit.errors)")
            let parsed = try JSONParser.parse(quit.output)
            #expect(parsed["apps"]?.arrayValue?.first?["state"] == "forceQuit")
            let list = try await CLITests.run(["phones", "--control-url", url])
            #expect(list.status == 0 && list.output.contains("phone bob (declared)"), "\(list.output)")
            let bad = try await CLITests.run(["phone", "alice", "--state", "forceQuit", "--control-url", url])
            #expect(bad.status == 2 && bad.errors.contains("give --app BUNDLE"), "\(bad.errors)")
            let typo = try await CLITests.run([
                "phone", "alice", "--app", "com.example.app", "--state", "gone", "--control-url", url,
            ])
            #expect(typo.status != 0 && typo.errors.contains("state: must be one of"), "\(typo.errors)")
            let missing = try await CLITests.run(["phone", "carol", "--control-url", url])
            #expect(missing.status != 0 && missing.errors.contains("no phone 'carol'"), "\(missing.errors)")
        }
    }
}
