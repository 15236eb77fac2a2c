import MockAPNs

extension MockAPNsControl {
    /// Waits until `count` pushes matching the filters (and `predicate`) were recorded; throws a readable
    /// failure otherwise.
    ///
    /// Event-driven: it returns as soon as the last expected push is recorded. It fails when fewer arrived
    /// within `timeout`, and when more than `count` had arrived by the time the last expected one did (a
    /// provider that sends twice). The failure lists what was received and the nearest misses.
    ///
    /// ```swift
    /// try await server.expectPush(to: token, count: 1, timeout: .seconds(2)) { record in
    ///     record.payloadJSON?.value(atPath: "aps.alert.title") == "Hello"
    /// }
    /// ```
    ///
    /// - Returns: the matching records, oldest first.
    @discardableResult
    public func expectPush(
        to token: String? = nil, matching query: RequestQuery = RequestQuery(), count: Int = 1,
        timeout: Duration = .seconds(2), where predicate: (@Sendable (JournalRecord) -> Bool)? = nil
    ) async throws -> [JournalRecord] {
        var query = query
        if let token { query.token = token.lowercased() }
        guard count >= 1 else {
            throw MockAPNsExpectationFailure(
                message: "expectPush needs a count of at least 1; use expectNoPush for none")
        }
        let deadline = ContinuousClock.now + timeout
        var needed = count
        while true {
            let remaining = max(.zero, deadline - ContinuousClock.now)
            let result = try await waitForRequests(query, count: needed, timeout: remaining)
            let matched = predicate.map { result.records.filter($0) } ?? result.records
            if matched.count >= count {
                guard matched.count == count else {
                    throw await failure(query, count, timeout, predicate != nil, result, matched: matched)
                }
                return matched
            }
            guard result.satisfied else {
                throw await failure(query, count, timeout, predicate != nil, result, matched: matched)
            }
            // Some records matched the filters but not the predicate: wait for as many more as are missing.
            needed = result.records.count + (count - matched.count)
        }
    }

    /// Checks that no push matching the filters arrives within `timeout` (or has arrived already).
    public func expectNoPush(
        to token: String? = nil, matching query: RequestQuery = RequestQuery(), timeout: Duration = .milliseconds(200)
    ) async throws {
        var query = query
        if let token { query.token = token.lowercased() }
        let result = try await waitForRequests(query, count: 1, timeout: timeout)
        guard result.satisfied else { return }
        throw await failure(query, 0, timeout, false, result, matched: result.records)
    }

    private func failure(
        _ query: RequestQuery, _ count: Int, _ timeout: Duration, _ hasPredicate: Bool, _ result: RequestWaitResult,
        matched: [JournalRecord]
    ) async -> MockAPNsExpectationFailure {
        let received = (try? await requests(RequestQuery(limit: ExpectationReport.receivedLimit))) ?? []
        let total = (try? await stats().records) ?? received.count
        let report = ExpectationReport(
            query: query, expectedCount: count, timeout: timeout, hasPredicate: hasPredicate,
            matched: matched, matchedFilters: result.records, received: received, receivedTotal: total,
            nearMisses: result.nearMisses)
        return MockAPNsExpectationFailure(message: report.message)
    }
}

/// An expectation on the pushes received that was not met; its description says what was received instead.
public struct MockAPNsExpectationFailure: Error, CustomStringConvertible {
    /// The whole explanation, several lines.
    public var message: String
    /// The explanation.
    public var description: String { message }
}
