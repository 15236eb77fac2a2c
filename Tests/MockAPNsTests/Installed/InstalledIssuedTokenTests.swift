import Foundation
import Testing

/// An update token the simulated phone issued is a Live Activity token, with the installed binary (issue 20,
/// item 4): an alert to it is refused as one to a declared Live Activity token is.
@Suite("installed binary: an issued update token is a Live Activity token")
struct InstalledIssuedTokenTests {
    /// A provider that starts the taxi ride, reads the issued token back, then sends it an alert, which must get
    /// 400 DeviceTokenNotForTopic (`mock-apns push` exits 1 on a rejection and prints the status line).
    static let provider = """
        mock-apns push \(InstalledRecordReplayTests.pushToStart) --live-activity start \
          --attributes-type mpushTaxiAttributes --attributes '{"appName":"mpush","appLogo":"taxi.png"}' \
          --content-state '{"status":"1"}' --alert 'Your taxi' > /dev/null
        RIDE=$(curl -sf "$MOCK_APNS_CONTROL_URL/v1/activities/wait?type=mpushTaxiAttributes&timeout=5s" \
          | jq -r .updateToken)
        mock-apns push "$RIDE" --topic com.example.app --alert 'not for an activity token'
        echo "alert exit $?"
        """

    @Test("an alert to the update token a push-to-start issued gets 400 DeviceTokenNotForTopic, as a declared one")
    func alertToIssuedToken() async throws {
        try await InstalledMockAPNs.with { installed in
            let ran = try await installed.run(
                ["run", "taxi-ride", "--journal", "ride.jsonl", "--", "sh", "-c", Self.provider])
            #expect(ran.output.contains("400 DeviceTokenNotForTopic"), "\(ran.output)\(ran.errors)")
            #expect(ran.output.contains("alert exit 1"), "\(ran.output)\(ran.errors)")
            let journal = try String(
                contentsOf: installed.workingDirectory.appendingPathComponent("ride.jsonl"), encoding: .utf8)
            let alert = journal.split(separator: "\n").last { $0.contains("not for an activity token") }
            #expect(alert?.contains(#""rule":"device.kind""#) == true, "\(journal)")
        }
    }
}
