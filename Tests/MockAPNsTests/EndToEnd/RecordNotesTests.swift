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
            let status = try await offPool {
                try Curl.request(port: port, path: "/3/device/\(EndToEndTests.device)", headers: headers, body: "{}")
                    .status
            }
            #expect(status == 410)
            let record = try #require(server.journal.records(matching: JournalQuery()).first)
            #expect(record.pushType == "alert")
            #expect(record.rule.hasPrefix("scripted:"))
        }
    }
}
