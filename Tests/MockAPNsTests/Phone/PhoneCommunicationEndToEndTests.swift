import Foundation
import Testing

@testable import MockAPNs

/// Communication notifications (phone.md §3 `serviceExtension.communication`, §4 Alert, rule `focus-communication`)
/// over HTTP/2 with curl: the service extension turns an alert into one from a person; a Focus that allows that
/// person lets it through; without the entitlement it is an ordinary notification, with a note. The record's device
/// part and the phone's notification list (`GET /v1/phones/{id}`) name the sender.
@Suite("phone: communication notifications end to end", .serialized)
struct PhoneCommunicationEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        apps:
          - bundleID: com.example.chat
            entitlements: [communication]
            serviceExtension:
              does: modify
              set: { title: Mum }
              communication: { sender: Mum }
              cases:
                - { match: { payload: { from: Boss } }, does: modify, communication: { sender: Boss } }
                - { match: { payload: { from: Nobody } }, does: modify, set: { title: Newsletter } }
                - { match: { payload: { from: Crash } }, does: crash, communication: { sender: Mum } }
          - bundleID: com.example.unentitled
            entitlements: [timeSensitive]
            serviceExtension: { does: modify, communication: { sender: Mum } }
          - bundleID: com.example.assumed
            serviceExtension: { does: expire, communication: { sender: Mum } }
        phones:
          sleeping: { focus: { name: Sleep, allowedPeople: [Mum] } }
          summary:
            scheduledSummary: true
            apps: { com.example.chat: { settings: { inSummary: true } } }
        devices:
          - { token: \(t(50)), phone: sleeping }
          - { token: \(t(51)), phone: summary }
        """

    /// A message as a chat provider sends it: `mutable-content` and alert text, the sender as a custom key.
    static func message(from sender: String) -> String {
        #"{"aps":{"mutable-content":1,"alert":{"title":"New message","body":"Hello"}},"from":"\#(sender)"}"#
    }

    static func send(_ server: MockAPNsServer, _ n: Int, from sender: String, app: String = "com.example.chat")
        async throws -> PhonePush.Result
    {
        let result = try await PhonePush.send(server, to: t(n), message(from: sender), topic: app)
        #expect(result.status == 200)
        return result
    }

    @Test("under a Focus, a communication notification from an allowed person breaks through; others are withheld")
    func focus() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let mum = try await Self.send(server, 50, from: "Mum")
            #expect(mum.kindAndRule == "shown focus-communication")
            #expect(
                mum.device?.communicationSender == "Mum" && mum.device?.trace == [.nseModified, .focusCommunication])
            #expect(
                mum.device?.reason
                    == "the Focus Sleep is on and allows Mum: their communication notification breaks through: shown")
            let boss = try await Self.send(server, 50, from: "Boss")
            #expect(boss.kindAndRule == "withheld focus-not-allowed" && boss.device?.communicationSender == "Boss")
            #expect(
                boss.device?.reason
                    == "the Focus Sleep is on and does not allow com.example.chat or Boss: delivered silently to "
                    + "Notification Center")
            let newsletter = try await Self.send(server, 50, from: "Nobody")
            #expect(newsletter.kindAndRule == "withheld focus-not-allowed")
            #expect(newsletter.device?.communicationSender == nil, "a case without communication is ordinary")
            let crashed = try await Self.send(server, 50, from: "Crash")
            #expect(crashed.kindAndRule == "withheld focus-not-allowed" && crashed.device?.fired(.nseKilled) == true)
            #expect(crashed.device?.communicationSender == nil, "the original content is no communication notification")
            let plain = try await PhonePush.send(
                server, to: Self.t(50), #"{"aps":{"alert":"Hello"},"from":"Mum"}"#, topic: "com.example.chat")
            #expect(
                plain.kindAndRule == "withheld focus-not-allowed", "without mutable-content the extension never runs")
            let noFocus = try await Self.send(server, 1, from: "Mum")
            #expect(noFocus.kindAndRule == "shown alert-shown" && noFocus.device?.communicationSender == "Mum")
        }
    }

    @Test("without the communication entitlement it is an ordinary notification with a note; undeclared: assumed")
    func entitlement() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let unentitled = try await Self.send(server, 50, from: "Mum", app: "com.example.unentitled")
            #expect(unentitled.kindAndRule == "withheld focus-not-allowed" && unentitled.device?.warnings == [])
            #expect(unentitled.device?.communicationSender == nil)
            #expect(
                unentitled.device?.notes.contains(
                    "com.example.unentitled has no communication entitlement "
                        + "(com.apple.developer.usernotifications.communication): the service extension cannot make "
                        + "a communication notification from Mum; it is shown as an ordinary notification") == true,
                "\(unentitled.device?.notes ?? [])")
            let assumed = try await Self.send(server, 50, from: "Mum", app: "com.example.assumed")
            #expect(assumed.kindAndRule == "shown focus-communication", "expire hands back its best attempt")
            #expect(assumed.device?.notes.contains { $0.contains("communication is assumed") } == true)
        }
    }

    @Test("a communication notification skips the Scheduled Summary")
    func summary() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let message = try await Self.send(server, 51, from: "Mum")
            #expect(message.kindAndRule == "shown alert-shown")
            let newsletter = try await Self.send(server, 51, from: "Nobody")
            #expect(newsletter.kindAndRule == "withheld scheduled-summary")
        }
    }

    @Test("expect: notificationCenter's sender counts a person's notifications; an ordinary one never matches")
    func senderExpectation() async throws {
        let yaml =
            Self.world + "\n"
            + """
            expect:
              - name: one message from Mum
                notificationCenter: { phone: sleeping, sender: Mum }
              - name: Boss's message, withheld but listed
                notificationCenter: { token: \(Self.t(50)), app: com.example.chat, sender: Boss, title: New message }
              - name: the newsletter has no sender
                notificationCenter: { phone: sleeping, title: Newsletter, sender: Nobody }
                count: 0
              - name: two messages from Mum
                notificationCenter: { phone: sleeping, sender: Mum }
                count: 2
            """
        try await withTestServer(scenario: try PhonePush.scenario(yaml)) { server in
            let mum = try await Self.send(server, 50, from: "Mum")
            let boss = try await Self.send(server, 50, from: "Boss")
            let newsletter = try await Self.send(server, 50, from: "Nobody")
            let items = Dictionary(uniqueKeysWithValues: server.verify(startedAt: nil).items.map { ($0.name, $0) })
            #expect(items["one message from Mum"]?.records == [mum.sequence])
            #expect(items["Boss's message, withheld but listed"]?.records == [boss.sequence])
            #expect(items["the newsletter has no sender"]?.passed == true)
            let two = try #require(items["two messages from Mum"])
            #expect(!two.passed)
            #expect(
                two.details == [
                    "expected 2 notifications on phone sleeping with sender \"Mum\"; got 1.",
                    "The list, newest first: #\(newsletter.sequence) \"Newsletter / Hello\", "
                        + "#\(boss.sequence) \"New message / Hello\" from Boss, "
                        + "#\(mum.sequence) \"Mum / Hello\" from Mum.",
                ], "\(two.details)")
        }
        let wrongType = ScenarioText.error(
            "expect:\n  - notificationCenter: { phone: a, sender: [Mum] }\n", file: "e.yaml")
        #expect(
            wrongType?.description
                == "e.yaml:2:45: expect[0].notificationCenter.sender: expected a string, got a list", "\(wrongType!)")
        let empty = ScenarioText.error("expect:\n  - notificationCenter: { phone: a, sender: '' }\n", file: "e.yaml")
        #expect(empty?.field == "expect[0].notificationCenter.sender")
        #expect(empty?.message == "the sender cannot be empty: name the person, like Mum")
        let loaded = try ScenarioText.load("expect:\n  - { name: n, notificationCenter: { phone: a, sender: Mum } }\n")
        #expect(
            loaded.expectations[0].scenarioJSON
                == .object([
                    ("name", "n"), ("notificationCenter", .object([("phone", "a"), ("sender", "Mum")])), ("count", 1),
                ]))
    }

    @Test("the record's JSON, GET /v1/phones/{id} and mock-apns phone name the sender; PATCH allowedPeople changes it")
    func api() async throws {
        try await withControlServer(scenario: try PhonePush.scenario(Self.world)) { server, control in
            let mum = try await Self.send(server, 50, from: "Mum")
            let record = try await ControlCurl.call("GET", control, "/v1/requests/\(mum.sequence)")
            #expect(record.json?["device"]?["communication"] == .object([("sender", "Mum")]), "\(record.text)")
            let newsletter = try await Self.send(server, 50, from: "Nobody")
            let plain = try await ControlCurl.call("GET", control, "/v1/requests/\(newsletter.sequence)")
            #expect(plain.json?["device"]?["communication"] == nil, "left out of an ordinary notification's part")
            let phone = try await ControlCurl.call("GET", control, "/v1/phones/sleeping")
            let app = phone.json?["apps"]?.arrayValue?.first { $0["bundleID"] == "com.example.chat" }
            let list = app?["notifications"]?.arrayValue ?? []
            #expect(list.map { $0["communication"] } == [.null, .object([("sender", "Mum")])], "\(phone.text)")
            let patched = try await ControlCurl.call(
                "PATCH", control, "/v1/phones/sleeping", body: #"{"focus": {"name": "Sleep", "allowedPeople": []}}"#)
            #expect(patched.status == 200, "\(patched.text)")
            #expect(try await Self.send(server, 50, from: "Mum").kindAndRule == "withheld focus-not-allowed")
            let printed = try await CLITests.run(["phone", "sleeping", "--control-url", control.url])
            #expect(printed.status == 0, "\(printed.errors)")
            let lines = printed.output.split(separator: "\n").filter { $0.hasPrefix("    #") }
            #expect(lines.count == 3, "\(printed.output)")
            #expect(lines.first?.hasSuffix(#" withheld from Mum "Mum" / "Hello""#) == true, "\(printed.output)")
            #expect(lines.last?.hasSuffix(#" shown from Mum "Mum" / "Hello""#) == true, "\(printed.output)")
            #expect(lines.dropFirst().first?.hasSuffix(#" withheld "Newsletter" / "Hello""#) == true)
        }
    }
}
