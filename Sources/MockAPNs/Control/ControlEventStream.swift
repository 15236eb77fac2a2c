import Hummingbird
import NIOCore

/// The control API's server-sent event streams (`/v1/requests/stream`, `/v1/activities/stream`): the one writer of
/// their answers, which ends every open stream when the control API stops.
struct ControlEventStream: Sendable {
    /// What a stream sends: an item (a record, an activity change), or a comment that keeps idle connections open.
    enum Event<Item: Sendable>: Sendable {
        case item(Item)
        case heartbeat
    }

    /// How often an idle stream sends a comment, so proxies keep it open and a gone client is noticed.
    static let heartbeatInterval = Duration.seconds(15)

    /// The long requests in progress, which the control API's shutdown ends.
    let longRequests: ControlShutdown

    /// A server-sent event response. It opens with a `comment`, sends the items `replay` answers (after
    /// `subscribe` ran, so none falls between the two), then each item `subscribe` feeds as an `event` event with
    /// the item's `sequence` as its id and its JSON (`encode`, the item's own by default) on one `data` line,
    /// skipping a fed item the replay already sent. A comment every `heartbeatInterval` keeps it open; the
    /// server's shutdown ends it; the closure `subscribe` returns stops the feeding when the client goes.
    ///
    /// `encode` runs on the stream's task, not on the one that feeds the item: a summary is made there, not on
    /// the event loop that appended the record.
    func response<Item: Sendable>(
        opening comment: String, event name: String, replay: () -> [Item] = { [] },
        sequence: @escaping @Sendable (Item) -> UInt64,
        encode: @escaping @Sendable (Item, inout String) -> Void,
        subscribe: (AsyncStream<Event<Item>>.Continuation) -> @Sendable () -> Void
    ) -> Response {
        let (events, continuation) = AsyncStream<Event<Item>>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
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
            encode(item, &text)
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

    /// `response` with each item written as its own JSON.
    func response<Item: JSONMapped & Sendable>(
        opening comment: String, event name: String, replay: () -> [Item] = { [] },
        sequence: @escaping @Sendable (Item) -> UInt64,
        subscribe: (AsyncStream<Event<Item>>.Continuation) -> @Sendable () -> Void
    ) -> Response {
        response(
            opening: comment, event: name, replay: replay, sequence: sequence,
            encode: { item, text in item.writeJSON(to: &text) }, subscribe: subscribe)
    }
}
