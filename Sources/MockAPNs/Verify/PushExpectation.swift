import Foundation

/// What a test or a scenario expects of the pushes received: exactly `count` records matching a query (and, from
/// Swift, a condition) within a time.
///
/// Checked against any `MockAPNsControl` (the server in-process, or `MockAPNsControlClient` over HTTP). It waits
/// for the pushes here and leaves the verdict on a miss to the checker of a scenario's `expect:`, so
/// `MockAPNsTesting`'s `expectPush`/`expectNoPush`, `mock-apns run` and `POST /v1/verify` explain a miss in the
/// same words (a `VerifyReport.Item`). (Not `Expectation`: that is Swift Testing's, in the same test files.)
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
    public enum Finding: Sendable {
        /// Exactly `count` records matched: those records, oldest first (none when none was expected).
        case met([JournalRecord])
        /// Too few arrived in time, or more than `count` (a provider that sends twice): the checker's report of
        /// the miss, then what was received.
        case failed(VerifyReport.Item)
    }

    /// Waits for the pushes and says whether the expectation is met.
    ///
    /// Event-driven: it answers as soon as the last expected push is recorded. It fails when fewer arrived within
    /// `timeout`, and when more than `count` had arrived by the time the last expected one did. For a count of
    /// 0 it watches for `timeout` and fails at the first matching push (or one recorded already).
    ///
    /// - Throws: `InputError` for a negative count, and what `control` throws (an unreachable server).
    public func check(against control: some MockAPNsControl) async throws -> Finding {
        guard count >= 0 else {
            throw InputError("an expectation's count must be 0 (no push) or more, got \(count)")
        }
        let deadline = ContinuousClock.now + timeout
        let started = Date()
        var needed = max(count, 1)
        while true {
            let remaining = max(.zero, deadline - ContinuousClock.now)
            let result = try await control.waitForRecords(query, count: needed, timeout: remaining)
            let matched = predicate.map { result.records.filter($0) } ?? result.records
            if count == 0, !matched.isEmpty || !result.satisfied {
                return matched.isEmpty ? .met([]) : .failed(await report(control, found: result.records, since: started))
            }
            if count > 0, matched.count >= count {
                return matched.count == count ? .met(matched) : .failed(await report(control, found: result.records, since: started))
            }
            guard result.satisfied else { return .failed(await report(control, found: result.records, since: started)) }
            // Some records matched the filters but not the predicate: wait for as many more as are missing.
            let missing = max(count, 1) - matched.count
            needed = result.records.count > Int.max - missing ? Int.max : result.records.count + missing
        }
    }

    /// How many records a report lists as received at most (the newest).
    public static let receivedLimit = 10
    /// How many of the newest records a report checks for the nearest miss, besides those the wait found.
    static let checkedLimit = 1000

    /// The report of a failed check: the checker's item over the records the wait found and the newest others
    /// (a matching record the wait did not see arrived after it and does not count), the newest received, and the
    /// newest TLS handshake that failed from a minute before the check began (`since`) on: a provider that does not
    /// trust the CA sends nothing, and its test would otherwise only see a count of 0.
    private func report(_ control: some MockAPNsControl, found: [JournalRecord], since: Date) async
        -> VerifyReport.Item
    {
        let seen = Set(found.map(\.sequence))
        let fetched =
            (try? await control.records(JournalQuery(since: query.since, limit: Self.checkedLimit))) ?? []
        let matches = query.matcher
        var records = found + fetched.filter { !seen.contains($0.sequence) && !matches($0) }
        records.sort { $0.sequence < $1.sequence }
        let expectation = ScenarioExpectation(
            name: count == 0 ? "expectNoPush" : "expectPush", match: query.match, count: count...count,
            within: timeout)
        var item = expectation.check(records, deadline: nil, where: predicate)
        let stats = try? await control.stats()
        let total = query.since == nil ? (stats?.records ?? fetched.count) : fetched.count
        item.details += Self.receivedLines(Array(fetched.suffix(Self.receivedLimit)), total: total)
        if let failure = stats?.lastFailedHandshake, failure.at >= since.addingTimeInterval(-60) {
            let seconds = max(0, Int(Date().timeIntervalSince(failure.at)))
            item.details.append("a TLS handshake failed \(seconds) s ago (\(failure.kind)): \(failure.message)")
        }
        return item
    }

    /// `received (the newest 10 of 12):` and one summary line per record, or `received: nothing …`.
    static func receivedLines(_ received: [JournalRecord], total: Int) -> [String] {
        guard !received.isEmpty else { return ["received: nothing (the journal is empty)"] }
        let shown = received.count < total ? " (the newest \(received.count) of \(total))" : ""
        return ["received\(shown):"] + received.map { "  \($0.summaryLine)" }
    }
}

extension VerifyReport.Item {
    /// The details, one line each: what a failed `expectPush` throws.
    public var message: String { details.joined(separator: "\n") }
}
