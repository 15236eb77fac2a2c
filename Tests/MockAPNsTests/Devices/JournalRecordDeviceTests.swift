import Foundation
import Testing

@testable import MockAPNs

/// The record's `device` part: written last, only when set, and read back.
@Suite("Journal record device part")
struct JournalRecordDeviceTests {
    @Test("an ordinary record has no device member; one with an outcome writes it last and reads it back")
    func roundTrip() throws {
        var record = JournalRecordJSONTests.fullRecord()
        #expect(record.json["device"] == nil)
        #expect(JournalRecord(json: record.json)?.device == nil)
        let outcome = DeviceOutcome(
            .dropped, reason: "content-state.status: expected String, found number", activityID: "A",
            warnings: ["w"])
        record.device = outcome
        guard case .object(let members) = record.json else { throw DeviceTestError.notAnObject }
        #expect(members.last?.0 == "device")
        #expect(members.last?.1 == outcome.json)
        let parsed = try JSONParser.parse(record.json.jsonText)
        #expect(JournalRecord(json: parsed)?.device == outcome)
        record.device = nil
        #expect(record.json["device"] == nil)
    }

    enum DeviceTestError: Error { case notAnObject }
}

/// The engine's activity registry and `/v1/reset`.
@Suite("Activity registry reset")
struct ActivityRegistryResetTests {
    @Test("POST /v1/reset and PUT /v1/scenario forget every activity and its update token")
    func resetClears() async throws {
        try await withControlServer { server, control in
            for route in [("POST", "/v1/reset", nil), ("PUT", "/v1/scenario", #"{"mode": "lenient"}"#)] {
                let started = server.engine.activities.start(LiveActivityStateTests.taxi())
                #expect(server.engine.activities.isUpdateToken(started.updateToken))
                let answer = try await ControlCurl.call(route.0, control, route.1, body: route.2)
                #expect(answer.status == 200, "\(route.1): \(answer.text)")
                #expect(server.engine.activities.activities.isEmpty, "\(route.1)")
                #expect(!server.engine.activities.isUpdateToken(started.updateToken), "\(route.1)")
            }
        }
    }
}

/// How `mock-apns requests` and reports show the phone's outcome beside the APNs answer.
@Suite("Journal record device text")
struct JournalRecordDeviceTextTests {
    @Test("the result and summary line say what the phone did, and why; ordinary records are unchanged")
    func texts() {
        var record = JournalRecordJSONTests.fullRecord()
        let before = record.summaryLine
        #expect(record.resultText == record.outcomeText)
        record.device = DeviceOutcome(.ignored, reason: "activity ended")
        #expect(record.resultText == "\(record.outcomeText), phone ignored")
        #expect(record.summaryLine.contains(": \(record.outcomeText), phone ignored (activity ended) "))
        record.device = nil
        #expect(record.summaryLine == before)
    }
}
