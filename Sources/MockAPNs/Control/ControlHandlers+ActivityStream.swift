import Hummingbird
import NIOCore

extension ControlHandlers {
    /// What an activity event stream sends: a change, or a comment that keeps idle connections open.
    enum ActivityStreamEvent: Sendable {
        case change(ActivityChange)
        case heartbeat
    }

    /// `GET /v1/activities/stream`: server-sent events, one `activity` event per change of an activity that
    /// matches the filters after the change (started, pushed with its outcome, rotated, dismissed), from the moment
    /// the stream opens. Each event's id is the change's sequence number.
    func streamActivities(_ request: Request) throws -> Response {
        let (query, _) = try ActivityQuery.parse(Self.parameters(request))
        let registry = server.engine.activities
        let server = self.server
        let (events, continuation) = AsyncStream<ActivityStreamEvent>.makeStream(
            bufferingPolicy: .bufferingNewest(10_000))
        let watcher = registry.addWatcher { event in
            let snapshot = server.snapshot(event.activity)
            guard query.matches(snapshot) else { return }
            let change = ActivityChange(
                sequence: event.sequence, kind: event.kind, outcome: event.outcome, activity: snapshot)
            continuation.yield(.change(change))
        }
        let heartbeat = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: Self.heartbeatInterval)
                continuation.yield(.heartbeat)
            }
        }
        let longRequests = self.longRequests
        let registration = longRequests.register { continuation.finish() }
        continuation.onTermination = { _ in
            registry.removeWatcher(watcher)
            heartbeat.cancel()
            longRequests.unregister(registration)
        }
        let body = ResponseBody { writer in
            defer { continuation.finish() }
            try await writer.write(ByteBuffer(string: ": mock-apns activity changes matching \(query.summary)\n\n"))
            for await event in events {
                switch event {
                case .change(let change):
                    var text = "id: \(change.sequence)\nevent: activity\ndata: "
                    change.json.write(to: &text)
                    text += "\n\n"
                    try await writer.write(ByteBuffer(string: text))
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
