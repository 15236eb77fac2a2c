import MockAPNs

extension MockAPNsControl {
    /// Waits until `count` pushes matching the filters (and `predicate`) were recorded; throws a readable
    /// failure otherwise.
    ///
    /// Event-driven: it returns as soon as the last expected push is recorded. It fails when fewer arrived
    /// within `timeout`, and when more than `count` had arrived by the time the last expected one did (a
    /// provider that sends twice). The failure says it as `mock-apns run` says a missed `expect:` (the nearest
    /// miss field by field), then lists what was received. The checking is `PushExpectation.check(against:)`'s,
    /// in `MockAPNs`.
    ///
    /// ```swift
    /// try await server.expectPush(to: token, count: 1, timeout: .seconds(2)) { record in
    ///     record.payloadJSON?.value(atPath: "aps.alert.title") == "Hello"
    /// }
    /// ```
    ///
    /// `device` requires what the simulated phone did with a Live Activity push, not only APNs's 200: `device:
    /// .applied` fails on an update the phone dropped. (`matching: JournalQuery(deviceWarnings: false)` also
    /// requires that it saw nothing wrong.)
    ///
    /// In a Swift Testing test, a failure is recorded as an issue at the line that called `expectPush` (not at the
    /// `@Test` function), and the error thrown to end the test says where.
    ///
    /// - Returns: the matching records, oldest first.
    @discardableResult
    public func expectPush(
        to token: String? = nil, device: DeviceOutcome.Kind? = nil, matching query: JournalQuery = JournalQuery(),
        count: Int = 1, timeout: Duration = .seconds(2), where predicate: (@Sendable (JournalRecord) -> Bool)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> [JournalRecord] {
        let caller = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard count >= 1 else {
            throw MockAPNsExpectationFailure(
                message: "expectPush needs a count of at least 1; use expectNoPush for none")
        }
        let expectation = PushExpectation(
            query: Self.query(query, token: token, device: device), count: count, timeout: timeout,
            where: predicate)
        return try await expectation.check(against: self).recordsOrFailure(at: caller)
    }

    /// Checks that no push matching the filters arrives within `timeout` (or has arrived already); with `device`,
    /// that the phone handled none so (`device: .dropped`).
    public func expectNoPush(
        to token: String? = nil, device: DeviceOutcome.Kind? = nil, matching query: JournalQuery = JournalQuery(),
        timeout: Duration = .milliseconds(200),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws {
        let caller = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let expectation = PushExpectation(
            query: Self.query(query, token: token, device: device), count: 0, timeout: timeout)
        _ = try await expectation.check(against: self).recordsOrFailure(at: caller)
    }

    /// `query` with its token replaced by `token` (lower-cased) and its device outcome by `device`, when given.
    private static func query(_ query: JournalQuery, token: String?, device: DeviceOutcome.Kind?) -> JournalQuery {
        var query = query
        if let token { query.token = token.lowercased() }
        if let device { query.device = device }
        return query
    }
}

extension PushExpectation.Finding {
    /// The records of a met expectation; a failed one throws its report (recorded first at `caller` as a Swift
    /// Testing issue when a test is running).
    func recordsOrFailure(at caller: CallerLocation) throws(MockAPNsExpectationFailure) -> [JournalRecord] {
        switch self {
        case .met(let records): return records
        case .failed(let report): throw MockAPNsExpectationFailure(message: report.message, at: caller)
        }
    }
}
