import Foundation

extension Scenario {
    /// Checks a run's records against the scenario's `expect:`, `unexpected:` and `checks:`.
    ///
    /// - Parameters:
    ///   - records: the run's journal, oldest first.
    ///   - startedAt: when the run started (COMMAND's start for `mock-apns run`): `within:` counts from here.
    ///   - droppedRecords: how many records the journal dropped before the check; non-zero fails the report.
    public func verify(_ records: [JournalRecord], startedAt: Date, droppedRecords: Int = 0) -> VerifyReport {
        var items = expectations.map { $0.check(records, startedAt: startedAt) }
        if unexpected == .fail {
            items.append(ScenarioExpectation.unexpectedItem(records, expectations: expectations))
        }
        items += checks.map { $0.check(records, scenario: self) }
        return VerifyReport(items: items, recordCount: records.count, droppedRecords: droppedRecords)
    }
}
