import Foundation
import Testing

/// Record mode with Live Activities, with the installed binary (issue 20, item 3): the update token the phone
/// issues is new each run, so the recording names it by the push-to-start token it came from.
@Suite("installed binary: a recorded Live Activity run replays")
struct InstalledRecordReplayTests {
    /// The taxi ride's push-to-start token (scenarios/taxi-ride.yaml).
    static let pushToStart =
        "db25ba3912644edd5d2dbfcaf74fca37e1c3619d95d3972169965f30f2c57e64b5efa1cec2f437cf204256b5d6f881335a727f"
        + "746099ffd4676e7e40a14ee3683d8809d5d8b4aaf6eea31109209ed97c"

    /// A provider as docs/live-activities.md walks it: a start, the issued token read back, an update, an end.
    static let provider = """
        mock-apns push \(pushToStart) --live-activity start --attributes-type mpushTaxiAttributes \
          --attributes '{"appName":"mpush","appLogo":"taxi.png"}' --content-state '{"status":"1"}' \
          --alert 'Your taxi' > /dev/null
        RIDE=$(curl -sf "$MOCK_APNS_CONTROL_URL/v1/activities/wait?type=mpushTaxiAttributes&timeout=5s" \
          | jq -r .updateToken)
        mock-apns push "$RIDE" --live-activity update --content-state '{"status":"2","eta":"3"}' > /dev/null
        mock-apns push "$RIDE" --live-activity end --content-state '{"status":"4"}' > /dev/null
        """

    @Test("run --record of a Live Activity run writes the issued token as issuedFrom, and the replay exits 0")
    func recordAndReplay() async throws {
        try await InstalledMockAPNs.with { installed in
            let recorded = try await installed.run([
                "run", "taxi-ride", "--record", "ride.yaml", "--", "sh", "-c", Self.provider,
            ])
            #expect(recorded.status == 0, "\(recorded.output)\(recorded.errors)")
            let text = try String(
                contentsOf: installed.workingDirectory.appendingPathComponent("ride.yaml"), encoding: .utf8)
            #expect(text.contains("token: { issuedFrom: \"\(Self.pushToStart)\", start: 1 }"), "\(text)")
            // Only the start's token, which the scenario declares, is written as it is; the issued one is not.
            #expect(text.components(separatedBy: "      token: \"").count == 2, "\(text)")
            // The replay: a new run, a new update token, the same expectations.
            let replay = try await installed.run(["run", "ride.yaml", "--", "sh", "-c", Self.provider])
            #expect(replay.status == 0, "\(text)\n\(replay.output)\(replay.errors)")
            #expect(replay.output.contains("2 passed, 0 failed"), "\(replay.output)")
            // And offline: verify against a journal of a third run.
            let third = try await installed.run([
                "run", "taxi-ride", "--journal", "third.jsonl", "--", "sh", "-c", Self.provider,
            ])
            #expect(third.status == 0, "\(third.output)\(third.errors)")
            let verified = try await installed.run(["verify", "ride.yaml", "--journal", "third.jsonl"])
            #expect(verified.status == 0, "\(verified.output)\(verified.errors)")
        }
    }
}
