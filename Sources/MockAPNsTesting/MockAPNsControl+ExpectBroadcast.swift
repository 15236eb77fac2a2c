import MockAPNs

extension MockAPNsControl {
    /// Waits until `count` broadcasts to `channel` (`POST /4/broadcasts/apps/<bundle>`, records of kind
    /// `broadcast`) were recorded; throws a readable failure otherwise, as `expectPush` does (and recorded at the
    /// caller's line in a Swift Testing test).
    ///
    /// `matching` adds filters: `JournalQuery(status: 200)` counts only accepted broadcasts,
    /// `JournalQuery(reason: "BadExpirationDate")` a refused one.
    ///
    /// ```swift
    /// try await server.expectBroadcast(channel: channelID, matching: JournalQuery(status: 200))
    /// ```
    ///
    /// - Returns: the matching records, oldest first.
    @discardableResult
    public func expectBroadcast(
        channel: String, matching query: JournalQuery = JournalQuery(), count: Int = 1,
        timeout: Duration = .seconds(2), where predicate: (@Sendable (JournalRecord) -> Bool)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> [JournalRecord] {
        let caller = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        var query = try Self.ofKind(.broadcast, query, at: caller)
        query.channel = channel
        return try await expectRecords(query, count: count, timeout: timeout, where: predicate, at: caller)
    }

    /// Waits until `count` channel operations `operation` (records of kind `channel`), on `channel` when given,
    /// were recorded; throws a readable failure otherwise. A created channel's id is random: leave `channel` out
    /// to expect the create, and read the id from the record (`otherKindMember("channel")`).
    ///
    /// ```swift
    /// let created = try await server.expectChannelOperation(.create, matching: JournalQuery(status: 201))
    /// ```
    @discardableResult
    public func expectChannelOperation(
        _ operation: ChannelOperation, channel: String? = nil, matching query: JournalQuery = JournalQuery(),
        count: Int = 1, timeout: Duration = .seconds(2),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> [JournalRecord] {
        let caller = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        var query = try Self.ofKind(.channel, query, at: caller)
        query.operation = operation
        if let channel { query.channel = channel }
        return try await expectRecords(query, count: count, timeout: timeout, where: nil, at: caller)
    }

    /// `count` (at least 1) records matching `query` within `timeout`, through `PushExpectation`'s checker.
    private func expectRecords(
        _ query: JournalQuery, count: Int, timeout: Duration, where predicate: (@Sendable (JournalRecord) -> Bool)?,
        at caller: CallerLocation
    ) async throws -> [JournalRecord] {
        guard count >= 1 else {
            throw MockAPNsExpectationFailure(message: "an expectation needs a count of at least 1", at: caller)
        }
        let expectation = PushExpectation(query: query, count: count, timeout: timeout, where: predicate)
        return try await expectation.check(against: self).recordsOrFailure(at: caller)
    }

    /// `query` narrowed to records of `kind` (a `kind:` word added to its search text).
    private static func ofKind(
        _ kind: JournalRecord.Kind, _ query: JournalQuery, at caller: CallerLocation
    ) throws -> JournalQuery {
        var query = query
        let text = [query.search?.text, "kind:\(kind.name)"].compactMap { $0 }.joined(separator: " ")
        do {
            query.search = try RecordSearch(text)
        } catch {
            throw MockAPNsExpectationFailure(message: "matching: \(error)", at: caller)
        }
        return query
    }
}
