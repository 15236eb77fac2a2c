import Foundation

extension Scenario {
    /// Checks a run's records against the scenario's `expect:`, `unexpected:` and `checks:`, and adds a failed item
    /// for each token upload that failed or had not finished.
    ///
    /// - Parameters:
    ///   - records: the run's journal, oldest first; only its device pushes are checked (a record of another kind,
    ///     `JournalRecord.Kind`, is neither expected nor unexpected), but for an expectation that names a broadcast
    ///     channel or operation (`channel:`, `operation:`), which sees the broadcasts and channel operations too.
    ///   - startedAt: when the run started (COMMAND's start for `mock-apns run`): `within:` counts from here.
    ///   - droppedRecords: how many records the journal dropped before the check; non-zero fails the report.
    ///   - tokenUploads: the run's token uploads (`tokenUpload:`), from every activity.
    public func verify(
        _ records: [JournalRecord], startedAt: Date, droppedRecords: Int = 0, tokenUploads: [TokenUpload] = []
    ) -> VerifyReport {
        let centres = NotificationCenterCheck(records, world: world)
        // Each push joined with its later events (`device:` sees them), then only the pushes.
        let joined = records.joiningDeviceEvents()
        let records = joined.filter { $0.kind == .devicePush }
        let withChannels = joined.filter { ScenarioExpectation.checkedKinds.contains($0.kind) }
        // `token: { issuedFrom: … }` names tokens the phone issued in this run: look them up in its records first.
        let issued = IssuedTokenCondition.issued(in: records)
        var scenario = self
        scenario.expectations = expectations.map { $0.resolvingIssuedTokens(issued) }
        var items = scenario.expectations.map { expectation in
            expectation.notificationCenter.map { centres.check($0, expectation) }
                ?? expectation.check(expectation.namesChannels ? withChannels : records, startedAt: startedAt)
        }
        if unexpected == .fail {
            items.append(ScenarioExpectation.unexpectedItem(records, expectations: scenario.expectations))
        }
        items += checks.map { $0.check(records, scenario: scenario) }
        items += tokenUploads.filter { $0.status != .delivered }.map(\.verifyItem)
        let checked = scenario.expectations.contains(where: \.namesChannels) ? withChannels : records
        return VerifyReport(items: items, recordCount: checked.count, droppedRecords: droppedRecords)
    }
}

extension ScenarioExpectation {
    /// The kinds of record an expectation that names channels checks: device pushes, broadcasts, channel operations.
    static let checkedKinds: Set<JournalRecord.Kind> = [.devicePush, .broadcast, .channel]

    /// Whether its match (or a step of its sequence) names a broadcast channel or operation (`channel:`,
    /// `operation:`): then it sees the broadcasts and channel operations, not only the device pushes.
    var namesChannels: Bool {
        ([match] + sequence).contains { !$0.channelTerms.isEmpty }
    }
}
