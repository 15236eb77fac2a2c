import Hummingbird

extension RecordRoutes {
    /// The parameter that makes `GET /v1/requests/stream` coalesce: `coalesce=250ms`.
    static let coalesceParameter = "coalesce"
    /// The intervals `coalesce=` accepts.
    static let coalesceRange = Duration.milliseconds(50)...Duration.seconds(10)
    /// How many records a coalesced event carries at most when `limit=` is not given.
    static let coalescedPageDefault = 100
    /// The most records a coalesced event may carry (`limit=`).
    static let coalescedPageMaximum = 1_000

    /// `GET /v1/requests/stream?coalesce=250ms`: at most one `page` event per interval, whatever the push rate,
    /// for a page that draws a few times a second. Each event says what arrived since the one before:
    /// `{"newest", "matched", "records", "journal"}`: the newest sequence number looked at (also the event's id, so
    /// that a reconnect resumes after it), how many records matched since the last event, the newest `limit` of them
    /// (100 by default, at most 1,000) in `view=`, oldest first, and what the journal holds. An interval in which
    /// nothing matched sends nothing.
    ///
    /// Nothing follows the journal on the pushes' event loops: the stream's task reads the journal once per
    /// interval (`Journal.arrivals`), so following costs per interval, not per push.
    func coalescedStream(_ query: JournalQuery, view: RecordView, interval text: String) throws -> Response {
        let interval: Duration
        switch DurationText.parse(text, in: Self.coalesceRange) {
        case .success(let duration): interval = duration
        case .failure(let problem) where problem.message.hasPrefix("must be from"):
            throw MockAPNsControlError.badRequest("\(Self.coalesceParameter) \(problem.message)")
        case .failure(let problem):
            throw MockAPNsControlError.badRequest("\(Self.coalesceParameter): \(problem.message)")
        }
        let limit = query.limit ?? Self.coalescedPageDefault
        guard limit <= Self.coalescedPageMaximum else {
            throw MockAPNsControlError.badRequest(
                "limit on a coalesced stream is the records per event, at most \(Self.coalescedPageMaximum); "
                    + "got \(limit)")
        }
        let journal = self.journal
        let start = query.since ?? journal.numbering.last
        return ControlEventStream(longRequests: longRequests).ticking(
            opening: "mock-apns records matching \(query.summary), at most one event every \(text)", event: "page",
            every: interval, after: start
        ) { after in
            let (newest, clearedThrough) = journal.numbering
            guard newest > after else { return (after, nil) }
            let (matched, records) = journal.arrivals(
                matching: query, after: after, through: newest, clearedThrough: clearedThrough, limit: limit)
            guard matched > 0 else { return (newest, nil) }
            let event = JSONValue.object([
                ("newest", .number(String(newest))), ("matched", .number(String(matched))),
                ("records", .array(records.map(view.json))), ("journal", journal.holdings.json),
            ])
            return (newest, event.jsonText)
        }
    }
}
