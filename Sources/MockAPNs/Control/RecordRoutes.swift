import Foundation
import Hummingbird

/// The control API's record routes over one journal: the list, one record, a wait and the stream.
///
/// The same routes serve a running mock's journal (`MockAPNsControlAPI`) and a journal file read back
/// (`mock-apns inspect`), so the inspector reads both alike.
struct RecordRoutes: Sendable {
    /// The records.
    let journal: Journal
    /// The mock's clock: the time relative filters (`after=-5m`) are read against.
    let now: @Sendable () -> Date
    /// The waits and streams in progress, which the control API's shutdown ends.
    let longRequests: ControlShutdown

    /// Adds `GET /v1/requests`, `/v1/requests/wait`, `/v1/requests/stream` and `/v1/requests/{seq}` to `router`.
    func register(on router: Router<BasicRequestContext>) {
        router.get("/v1/requests") { request, _ in try self.list(request) }
        router.get("/v1/requests/wait") { request, _ in try await self.wait(request) }
        router.get("/v1/requests/stream") { request, _ in try self.stream(request) }
        router.get("/v1/requests/{seq}") { _, context in try self.record(context.parameters.get("seq") ?? "") }
    }

    /// `query` with its relative times fixed against the mock's clock, which the records' times come from.
    func resolvingTimes(_ query: JournalQuery) -> JournalQuery {
        query.resolvingTimes(now: now())
    }

    /// `{"count", "records", "journal"}`: the matching records in `view=`, oldest first, and what the journal
    /// holds (`JournalHoldings`), so that a page walking back with `olderThan=` knows where the records end.
    private func list(_ request: Request) throws -> Response {
        let (query, extra) = try JournalQuery.parse(ControlHandlers.parameters(request), extra: ["view"])
        let view = try RecordView.named(extra["view"])
        let records = journal.records(matching: resolvingTimes(query))
        return ControlResponse.json(
            .object([
                ("count", .number(String(records.count))), ("records", .array(records.map(view.json))),
                ("journal", journal.holdings.json),
            ]))
    }

    private func record(_ text: String) throws -> Response {
        guard let sequence = UInt64(text) else {
            throw MockAPNsControlError.badRequest(
                "'\(text)' is not a sequence number; GET /v1/requests/{seq} takes a record's sequence, such as 1")
        }
        guard sequence > 0, let record = journal.records(after: sequence - 1).first(where: { $0.sequence == sequence })
        else {
            throw MockAPNsControlError.notFound(
                "no record #\(sequence): the journal holds \(journal.count) record(s) of \(journal.totalCount) "
                    + "recorded (cleared or dropped records are gone); list them with GET /v1/requests")
        }
        return ControlResponse.json(Self.withEvents(record, journal: journal))
    }

    /// A push's record with `events`: the summaries of its later `device-event` records (phone.md §5), in order;
    /// other records as they are.
    static func withEvents(_ record: JournalRecord, journal: Journal) -> JSONValue {
        guard record.kind == .devicePush, record.device != nil, case .object(let members) = record.json else {
            return record.json
        }
        let events = journal.records(after: record.sequence).compactMap(\.deviceEvent)
            .filter { $0.push == record.sequence }
        return .object(members + [("events", .array(events.map(\.json)))])
    }

    private func wait(_ request: Request) async throws -> Response {
        let (query, extra) = try JournalQuery.parse(ControlHandlers.parameters(request), extra: ["count", "timeout"])
        try Self.refuseOlderThan(query, route: "GET /v1/requests/wait")
        var count = 1
        if let text = extra["count"] {
            guard let value = Int(text), (1...100_000).contains(value) else {
                throw MockAPNsControlError.badRequest("count must be a whole number from 1 to 100000, got '\(text)'")
            }
            count = value
        }
        let timeout = try ControlDuration.parse(extra["timeout"] ?? "5s")
        let journal = self.journal
        let resolved = resolvingTimes(query)
        let task = Task { await journal.waitForRecords(matching: resolved, count: count, timeout: timeout) }
        let registration = longRequests.register { task.cancel() }
        defer { longRequests.unregister(registration) }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        return ControlResponse.json(result.json(query: query, timeout: timeout), status: result.satisfied ? 200 : 408)
    }

    /// A wait or a stream is about records still to come: `olderThan=` (paging back through the list) would make
    /// it wait for records that can never arrive.
    static func refuseOlderThan(_ query: JournalQuery, route: String) throws(MockAPNsControlError) {
        guard query.olderThan != nil else { return }
        throw .badRequest(
            "olderThan pages back through GET /v1/requests; \(route) is about records still to come (use since=)")
    }
}
