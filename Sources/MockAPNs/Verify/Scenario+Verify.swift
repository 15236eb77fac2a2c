import Foundation

extension Scenario {
    /// Checks a run's records against the scenario's `expect:`, `unexpected:` and `checks:`, and adds a failed item
    /// for each token upload that failed or had not finished.
    ///
    /// - Parameters:
    ///   - records: the run's journal, oldest first; only its device pushes are checked (a record of another kind,
    ///     `JournalRecord.Kind`, is neither expected nor unexpected).
    ///   - startedAt: when the run started (COMMAND's start for `mock-apns run`): `within:` counts from here.
    ///   - droppedRecords: how many records the journal dropped before the check; non-zero fails the report.
    ///   - tokenUploads: the run's token uploads (`tokenUpload:`), from every activity.
    public func verify(
        _ records: [JournalRecord], startedAt: Date, droppedRecords: Int = 0, tokenUploads: [TokenUpload] = []
    ) -> VerifyReport {
        let centres = NotificationCenterCheck(records, world: world)
        // Each push joined with its later events (`device:` sees them), then only the pushes.
        let records = records.joiningDeviceEvents().filter { $0.kind == .devicePush }
        // `token: { issuedFrom: … }` names tokens the phone issued in this run: look them up in its records first.
        let issued = IssuedTokenCondition.issued(in: records)
        var scenario = self
        scenario.expectations = expectations.map { $0.resolvingIssuedTokens(issued) }
        var items = scenario.expectations.map { expectation in
            expectation.notificationCenter.map { centres.check($0, expectation) }
                ?? expectation.check(records, startedAt: startedAt)
        }
        if unexpected == .fail {
            items.append(ScenarioExpectation.unexpectedItem(records, expectations: scenario.expectations))
        }
        items += checks.map { $0.check(records, scenario: scenario) }
        items += tokenUploads.filter { $0.status != .delivered }.map(\.verifyItem)
        return VerifyReport(items: items, recordCount: records.count, droppedRecords: droppedRecords)
    }
}
