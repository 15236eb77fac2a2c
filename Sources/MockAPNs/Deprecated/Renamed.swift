// The names that one name per concept replaced (structure review §4.4), kept for one release so that code
// written against 0.1 still builds, with a warning that names the new spelling. Delete this file in the next.

/// A journal query. Renamed: a query is about journal records, not requests.
@available(*, deprecated, renamed: "JournalQuery")
public typealias RequestQuery = JournalQuery

/// What a wait found. Renamed with the wait itself (`waitForRecords`).
@available(*, deprecated, renamed: "RecordWaitResult")
public typealias RequestWaitResult = RecordWaitResult

/// The scripted rules and their counters. Renamed so that there is one engine, `MockAPNsEngine`.
@available(*, deprecated, renamed: "ScriptedRules")
public typealias ScriptedRuleEngine = ScriptedRules

extension MockAPNsControl {
    /// The journal records that match `query`, oldest first.
    @available(*, deprecated, renamed: "records(_:)")
    public func requests(_ query: JournalQuery) async throws -> [JournalRecord] {
        try await records(query)
    }

    /// The record with sequence number `sequence`, or `nil`.
    @available(*, deprecated, renamed: "record(sequence:)")
    public func request(sequence: UInt64) async throws -> JournalRecord? {
        try await record(sequence: sequence)
    }

    /// Waits until `count` records match `query` or `timeout` passes.
    @available(*, deprecated, renamed: "waitForRecords(_:count:timeout:)")
    public func waitForRequests(_ query: JournalQuery, count: Int, timeout: Duration) async throws
        -> RecordWaitResult
    {
        try await waitForRecords(query, count: count, timeout: timeout)
    }

    /// Forgets every journal record.
    @available(*, deprecated, renamed: "clearRecords()")
    public func clearRequests() async throws {
        try await clearRecords()
    }
}

extension APNsResponse {
    /// A success. Renamed: `apnsUniqueID` is the one public spelling of the `apns-unique-id` header.
    @available(*, deprecated, renamed: "success(apnsID:apnsUniqueID:)")
    public static func success(apnsID: String, uniqueID: String?) -> APNsResponse {
        success(apnsID: apnsID, apnsUniqueID: uniqueID)
    }
}
