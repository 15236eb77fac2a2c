import Foundation

extension ScenarioExpectation {
    /// Whether this expectation names `record`: its `match`, or one of its `sequence` steps, matches it.
    ///
    /// What `no-unexpected-errors` asks of `expect:`. For now it delegates to the rules' matcher
    /// (`ScriptedRules.matches`) over the recorded request; the expectations' shared record matcher (issue 11,
    /// `expect:`) is meant to take its place, so that a record counts as named exactly when `expect:` counts it.
    func names(_ record: JournalRecord) -> Bool {
        let request = APNsRequest(record.request, streamID: record.streamID)
        return (sequence.isEmpty ? [match] : sequence).contains { match in
            var payload: JSONValue?? = nil
            return ScriptedRules.matches(match, request, payload: &payload)
        }
    }

    /// Whether any of `expectations` names `record`.
    static func anyNames(_ record: JournalRecord, in expectations: [ScenarioExpectation]) -> Bool {
        expectations.contains { $0.names(record) }
    }
}
