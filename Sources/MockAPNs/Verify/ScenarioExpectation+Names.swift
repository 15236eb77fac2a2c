import Foundation

extension ScenarioExpectation {
    /// Whether this expectation names `record`: its `match`, or one of its `sequence` steps, matches it.
    ///
    /// What `unexpected: fail` and the `no-unexpected-errors` check ask of `expect:`; the rules' matcher over the
    /// recorded request and its device part, so a record counts as named exactly when `expect:` would count it.
    func names(_ record: JournalRecord) -> Bool {
        // A notification-centre expectation is about the phone, not about requests.
        if notificationCenter != nil { return false }
        var payload: JSONValue??
        if sequence.isEmpty { return match.matches(record, payload: &payload) }
        for step in sequence where step.matches(record, payload: &payload) { return true }
        return false
    }

    /// Whether any of `expectations` names `record`.
    static func anyNames(_ record: JournalRecord, in expectations: [ScenarioExpectation]) -> Bool {
        expectations.contains { $0.names(record) }
    }
}
