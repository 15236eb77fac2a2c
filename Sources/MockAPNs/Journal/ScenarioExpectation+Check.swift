import Foundation

extension ScenarioExpectation {
    /// The expectation checked against a run's records.
    func check(_ records: [JournalRecord], startedAt: Date) -> VerifyReport.Item {
        // PLACEHOLDER (i11-base only, replaced by the expectations work before merging).
        VerifyReport.Item(kind: .expectation, name: name, passed: false, summary: "not checked yet")
    }

    /// The `unexpected: fail` item: every record some expectation matches.
    static func unexpectedItem(_ records: [JournalRecord], expectations: [ScenarioExpectation]) -> VerifyReport.Item {
        // PLACEHOLDER (i11-base only, replaced by the expectations work before merging).
        VerifyReport.Item(kind: .unexpected, name: "unexpected requests", passed: false, summary: "not checked yet")
    }
}
