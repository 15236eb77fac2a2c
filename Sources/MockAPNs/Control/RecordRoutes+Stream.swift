import Hummingbird

extension RecordRoutes {
    /// `GET /v1/requests/stream`: server-sent events, one `record` event per new matching record, in `view=`; with
    /// `coalesce=` one `page` event per interval instead (`coalescedStream`).
    ///
    /// With `since` (or a `Last-Event-ID` header, as browsers send when they reconnect) the records after that
    /// sequence number are sent first. Each event's id is the record's sequence number. A summary is made on the
    /// stream's own task, so following with `view=summary` costs the pushes' event loops no more than a record.
    func stream(_ request: Request) throws -> Response {
        var (parsed, extra) = try JournalQuery.parse(
            ControlHandlers.parameters(request), extra: ["view", Self.coalesceParameter])
        let view = try RecordView.named(extra["view"])
        try Self.refuseOlderThan(parsed, route: "GET /v1/requests/stream")
        let lastEventID = request.headers.first { $0.name.canonicalName == "last-event-id" }?.value
        if let lastEventID, let sequence = UInt64(lastEventID) {
            parsed.since = sequence
        }
        let query = resolvingTimes(parsed)
        if let interval = extra[Self.coalesceParameter] {
            return try coalescedStream(query, view: view, interval: interval)
        }
        let journal = self.journal
        var replayed: [JournalRecord] = []
        return ControlEventStream(longRequests: longRequests).response(
            opening: "mock-apns records matching \(query.summary)", event: "record", replay: { replayed },
            sequence: \.sequence,
            encode: { record, text in
                switch view {
                case .full: record.writeJSON(to: &text)
                case .summary: text += RecordSummary(record).json.jsonText
                }
            }
        ) { continuation in
            let (replay, observer) = journal.follow(query) { record in continuation.yield(.item(record)) }
            replayed = replay
            return { journal.removeObserver(observer) }
        }
    }
}
