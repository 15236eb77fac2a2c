import Foundation
import Testing

@testable import MockAPNs

/// What a record says beyond the answer: a Live Activity start the phone would drop, the push type of a scripted
/// answer.
@Suite("record notes and push types")
struct RecordNotesTests {
    static let topic = "com.example.app.push-type.liveactivity"
    static let start =
        #"{"aps":{"timestamp":1,"event":"start","attributes-type":"DeliveryAttributes","attributes":{},"#
        + #""content-state":{"eta":5}"#

    @Test("answers 200 and notes that the phone would drop a start with no aps.alert; not with one")
    func startNote() async throws {
        try await withTestServer { server in
            let without = try await sendPush(
                server,
                topic: Self.topic,
                pushType: "liveactivity",
                body: Self.start + "}}"
            )
            let with = try await sendPush(
                server,
                topic: Self.topic,
                pushType: "liveactivity",
                body: Self.start + #","alert":{"title":"Order placed","body":"Preparing"}}}"#
            )
            #expect(without == 200 && with == 200)
            let records = server.journal.records(matching: JournalQuery())
            try #require(records.count == 2)
            #expect(records[0].notes.contains(APNsValidator.startWithoutAlertNote), "\(records[0].notes)")
            #expect(!records[1].notes.contains(APNsValidator.startWithoutAlertNote), "\(records[1].notes)")
        }
    }

    @Test("a scripted answer records the push type the checks would take: alert when the header is missing")
    func scriptedPushType() async throws {
        try await withTestServer { server in
            try await server.addRules(ScenarioLoader.parseRules(yaml: #"{"respond": {"reason": "Unregistered"}}"#))
            let headers = ["apns-topic": "com.example.app", "authorization": "bearer \(testProviderToken())"]
            let port = server.port
            let status = try await Curl.request(
                port: port, path: "/3/device/\(EndToEndTests.device)", headers: headers, body: "{}")
                .status
            #expect(status == 410)
            let record = try #require(server.journal.records(matching: JournalQuery()).first)
            #expect(record.pushType == "alert")
            #expect(record.rule.hasPrefix("scripted:"))
        }
    }

    /// Alert payloads and the note each gets: `nil` when the phone has something to show.
    static let displayCases: [(payload: String, note: String?)] = [
        (#"{"data":{"aps":{"alert":"nested, not the payload's"}}}"#, "the phone shows nothing: the payload has no aps"),
        (#"{"aps":"hello"}"#, "the phone shows nothing: aps is not a JSON object"),
        (#"{"aps":{}}"#, "the phone shows nothing: aps has no alert, sound or badge"),
        (#"{"aps":{"content-available":1,"alert":null}}"#, "the phone shows nothing: aps has no alert, sound or badge"),
        (#"{"aps":{"alert":""}}"#, PayloadDisplay.alertWithoutText.note),
        (#"{"aps":{"alert":{}}}"#, PayloadDisplay.alertWithoutText.note),
        (#"{"aps":{"mutable-content":1,"alert":{"title":"","body":null,"launch-image":"a.png"}}}"#,
         PayloadDisplay.alertWithoutText.note),
        (#"{"aps":{"alert":"Your order is ready"}}"#, nil),
        (#"{"aps":{"alert":{"loc-key":"ORDER_READY"}}}"#, nil),
        (#"{"aps":{"alert":{"title-loc-key":"ORDER"}}}"#, nil),
        (#"{"aps":{"alert":{"subtitle":"x"}}}"#, nil),
        (#"{"aps":{"alert":{"\u0062ody":"escaped key"}}}"#, nil),
        (#"{"aps":{"alert":"","sound":"default"}}"#, nil),
        (#"{"aps":{"badge":0}}"#, nil),
        (#"{"aps":{"sound":{"critical":1,"name":"siren.caf"}}}"#, nil),
    ]

    /// The default scenario with the phone kept to Live Activities: an alert push that shows nothing then has the
    /// APNs stage's note (with the phone on, it is the push's device outcome, `nothing-to-show`).
    static var phoneOff: Scenario {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.phone.settings.enabled = false
        return scenario
    }

    @Test(
        "with simulation off, an alert push that shows nothing is answered 200 with a note that says why",
        arguments: displayCases)
    func nothingToShow(payload: String, note: String?) async throws {
        try await withTestServer(scenario: Self.phoneOff) { server in
            let status = try await sendPush(server, body: payload)
            #expect(status == 200)
            let record = try #require(server.journal.records().last)
            let found = record.notes.filter { $0.hasPrefix("the phone shows nothing") }
            #expect(found == (note.map { [$0] } ?? []), "\(payload)")
        }
    }

    @Test("a push that shows nothing but is not an alert, or is rejected, gets no such note")
    func nothingToShowOnlyForAcceptedAlerts() async throws {
        try await withTestServer(scenario: Self.phoneOff) { server in
            let background = try await sendPush(
                server, pushType: "background", body: #"{"aps":{"content-available":1}}"#)
            let rejected = try await sendPush(server, to: "abc", body: #"{"aps":{}}"#)
            #expect(background == 200 && rejected == 400)
            for record in server.journal.records() {
                #expect(!record.notes.contains { $0.hasPrefix("the phone shows nothing") }, "\(record.notes)")
            }
        }
    }

    @Test("a background push at priority 10: 200 with the note background-priority-10; 400 under the setting")
    func backgroundPriorityTen() async throws {
        func push(_ server: MockAPNsServer, priority: String) async throws -> Int {
            let headers = EndToEndTests.pushHeaders(["apns-push-type": "background", "apns-priority": priority])
            let port = server.port
            return try await Curl.request(
                port: port, path: "/3/device/\(EndToEndTests.device)", headers: headers,
                body: #"{"aps":{"content-available":1}}"#
            ).status
        }
        try await withTestServer { server in
            let ten = try await push(server, priority: "10")
            let five = try await push(server, priority: "5")
            #expect(ten == 200 && five == 200)
            let records = server.journal.records()
            #expect(records.map(\.notes) == [[APNsValidator.backgroundPriorityTenNote], []])
            #expect(records[0].notes.first?.hasPrefix("background-priority-10: ") == true)
        }
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.world.fidelity.backgroundPriorityTen = .badPriority
        try await withTestServer(scenario: scenario) { server in
            let ten = try await push(server, priority: "10")
            #expect(ten == 400)
            let record = try #require(server.journal.records().first)
            #expect(record.reason == "BadPriority" && record.rule == "apns-priority.background")
        }
    }
}
