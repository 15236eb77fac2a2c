import Hummingbird
import NIOCore

extension ControlHandlers {
    /// What an event stream sends: a record, or a comment that keeps idle connections open.
    enum StreamEvent: Sendable {
        case record(JournalRecord)
        case heartbeat
    }

    /// How often an idle stream sends a comment, so proxies keep it open and a gone client is noticed.
    static let heartbeatInterval = Duration.seconds(15)

    /// `GET /v1/requests/stream`: server-sent events, one `record` event per new matching record.
    ///
    /// With `since` (or a `Last-Event-ID` header, as browsers send when they reconnect) the records after that
    /// sequence number are sent first. Each event's id is the record's sequence number.
    func stream(_ request: Request) throws -> Response {
        var (parsed, _) = try JournalQuery.parse(Self.parameters(request))
        let lastEventID = request.headers.first { $0.name.canonicalName == "last-event-id" }?.value
        if let lastEventID, let sequence = UInt64(lastEventID) {
            parsed.since = sequence
        }
        let query = parsed
        let journal = server.journal
        let (events, continuation) = AsyncStream<StreamEvent>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let (replay, observer) = journal.follow(query) { record in continuation.yield(.record(record)) }
        let heartbeat = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: Self.heartbeatInterval)
                continuation.yield(.heartbeat)
            }
        }
        let longRequests = self.longRequests
        let registration = longRequests.register { continuation.finish() }
        continuation.onTermination = { _ in
            journal.removeObserver(observer)
            heartbeat.cancel()
            longRequests.unregister(registration)
        }
        let body = ResponseBody { writer in
            defer { continuation.finish() }
            try await writer.write(ByteBuffer(string: ": mock-apns records matching \(query.summary)\n\n"))
            var lastSent: UInt64 = 0
            for record in replay {
                try await writer.write(Self.event(record))
                lastSent = record.sequence
            }
            for await event in events {
                switch event {
                case .record(let record):
                    // Records already sent from the snapshot also reached the observer: send each once.
                    guard record.sequence > lastSent else { continue }
                    try await writer.write(Self.event(record))
                case .heartbeat:
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: body)
    }

    /// One record as a server-sent event: `id`, `event: record` and the record's JSON on one `data` line.
    static func event(_ record: JournalRecord) -> ByteBuffer {
        var text = "id: \(record.sequence)\nevent: record\ndata: "
        record.json.write(to: &text)
        text += "\n\n"
        return ByteBuffer(string: text)
    }
}
