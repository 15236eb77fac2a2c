import Hummingbird
import NIOCore

extension ControlHandlers {
    /// What an event stream sends: an item (a record, an activity change), or a comment that keeps idle
    /// connections open.
    enum StreamEvent<Item: Sendable>: Sendable {
        case item(Item)
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
        let query = server.control.resolvingTimes(parsed)
        let journal = server.journal
        var replayed: [JournalRecord] = []
        return eventStream(
            opening: "mock-apns records matching \(query.summary)", event: "record", replay: { replayed },
            sequence: \.sequence
        ) { continuation in
            let (replay, observer) = journal.follow(query) { record in continuation.yield(.item(record)) }
            replayed = replay
            return { journal.removeObserver(observer) }
        }
    }

    /// A server-sent event response: the one writer of the control API's streams. It opens with a `comment`, sends
    /// the items `replay` answers (after `subscribe` ran, so none falls between the two), then each item
    /// `subscribe` feeds as an `event` event with the item's `sequence` as its id and its JSON on one `data`
    /// line, skipping a fed item the replay already sent. A comment every `heartbeatInterval` keeps it open; the
    /// server's shutdown ends it; the closure `subscribe` returns stops the feeding when the client goes.
    func eventStream<Item: JSONMapped & Sendable>(
        opening comment: String, event name: String, replay: () -> [Item] = { [] },
        sequence: @escaping @Sendable (Item) -> UInt64,
        subscribe: (AsyncStream<StreamEvent<Item>>.Continuation) -> @Sendable () -> Void
    ) -> Response {
        let (events, continuation) = AsyncStream<StreamEvent<Item>>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let unsubscribe = subscribe(continuation)
        let replayed = replay()
        let heartbeat = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: Self.heartbeatInterval)
                continuation.yield(.heartbeat)
            }
        }
        let longRequests = self.longRequests
        let registration = longRequests.register { continuation.finish() }
        continuation.onTermination = { _ in
            unsubscribe()
            heartbeat.cancel()
            longRequests.unregister(registration)
        }
        @Sendable func frame(_ item: Item) -> ByteBuffer {
            var text = "id: \(sequence(item))\nevent: \(name)\ndata: "
            item.writeJSON(to: &text)
            text += "\n\n"
            return ByteBuffer(string: text)
        }
        let body = ResponseBody { writer in
            defer { continuation.finish() }
            try await writer.write(ByteBuffer(string: ": \(comment)\n\n"))
            var lastSent: UInt64 = 0
            for item in replayed {
                try await writer.write(frame(item))
                lastSent = sequence(item)
            }
            for await event in events {
                switch event {
                case .item(let item):
                    // Items already sent from the replay also reached the subscription: send each once.
                    guard sequence(item) > lastSent else { continue }
                    try await writer.write(frame(item))
                case .heartbeat:
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }
}
