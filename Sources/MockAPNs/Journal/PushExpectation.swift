/// What a test or a scenario expects of the pushes received: exactly `count` records matching a query (and, from
/// Swift, a condition) within a time.
///
/// Checked against any `MockAPNsControl` (the server in-process, or `MockAPNsControlClient` over HTTP), so
/// `MockAPNsTesting`'s `expectPush`/`expectNoPush` and the command line decide the same way and explain a
/// failure with the same `ExpectationReport`. (Not `Expectation`: that is Swift Testing's, in the same test files.)
///
/// ```swift
/// let expectation = PushExpectation(query: JournalQuery(token: token), count: 1, timeout: .seconds(2))
/// if case .failed(let report) = try await expectation.check(against: server) { print(report.message) }
/// ```
public struct PushExpectation: Sendable {
    /// The filters the pushes must match.
    public var query: JournalQuery
    /// How many matching pushes must arrive: exactly this many; 0 for none.
    public var count: Int
    /// How long to wait for them (for none: how long to watch that none arrives).
    public var timeout: Duration
    /// A further condition on each record that matches the filters; `nil` takes every one.
    public var predicate: (@Sendable (JournalRecord) -> Bool)?

    /// Expects `count` pushes matching `query` (and `predicate`, when given) within `timeout`.
    public init(
        query: JournalQuery = JournalQuery(), count: Int = 1, timeout: Duration = .seconds(2),
        where predicate: (@Sendable (JournalRecord) -> Bool)? = nil
    ) {
        self.query = query
        self.count = count
        self.timeout = timeout
        self.predicate = predicate
    }

    /// How a check turned out.
    public enum Outcome: Sendable {
        /// Exactly `count` records matched: those records, oldest first (none when none was expected).
        case met([JournalRecord])
        /// Too few arrived in time, or more than `count` (a provider that sends twice): what was received instead.
        case failed(ExpectationReport)
    }

    /// Waits for the pushes and says whether the expectation is met.
    ///
    /// Event-driven: it answers as soon as the last expected push is recorded. It fails when fewer arrived within
    /// `timeout`, and when more than `count` had arrived by the time the last expected one did. For a count of
    /// 0 it watches for `timeout` and fails at the first matching push (or one recorded already).
    ///
    /// - Throws: `MockAPNsControlError` for a negative count, and what `control` throws (an unreachable server).
    public func check(against control: some MockAPNsControl) async throws -> Outcome {
        guard count >= 0 else {
            throw MockAPNsControlError.badRequest("an expectation's count must be 0 (no push) or more, got \(count)")
        }
        let deadline = ContinuousClock.now + timeout
        var needed = max(count, 1)
        while true {
            let remaining = max(.zero, deadline - ContinuousClock.now)
            let result = try await control.waitForRecords(query, count: needed, timeout: remaining)
            let matched = predicate.map { result.records.filter($0) } ?? result.records
            if count == 0, !matched.isEmpty || !result.satisfied {
                return matched.isEmpty ? .met([]) : .failed(await report(control, result, matched: matched))
            }
            if count > 0, matched.count >= count {
                return matched.count == count ? .met(matched) : .failed(await report(control, result, matched: matched))
            }
            guard result.satisfied else { return .failed(await report(control, result, matched: matched)) }
            // Some records matched the filters but not the predicate: wait for as many more as are missing.
            let missing = max(count, 1) - matched.count
            needed = result.records.count > Int.max - missing ? Int.max : result.records.count + missing
        }
    }

    /// The report of a failed check: the wait's result, and the newest records in the journal.
    private func report(_ control: some MockAPNsControl, _ result: RecordWaitResult, matched: [JournalRecord]) async
        -> ExpectationReport
    {
        let received = (try? await control.records(JournalQuery(limit: ExpectationReport.receivedLimit))) ?? []
        let total = (try? await control.stats().records) ?? received.count
        return ExpectationReport(
            query: query, expectedCount: count, timeout: timeout, hasPredicate: predicate != nil, matched: matched,
            matchedFilters: result.records, received: received, receivedTotal: total, nearMisses: result.nearMisses)
    }
}
