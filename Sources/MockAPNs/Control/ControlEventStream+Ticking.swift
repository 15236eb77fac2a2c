import Hummingbird
import NIOCore

extension ControlEventStream {
    /// A server-sent event response that sends at most one event per `interval`, whatever the rate of what it
    /// reports: it opens with a `comment`, then asks `tick` at once and every `interval` after for what came after
    /// the id it last got (`start` first). `tick` answers the new id and the event's JSON, or `nil` JSON when
    /// nothing is worth an event (the id still moves on); an event goes out as `event` with that id. A comment keeps
    /// a quiet stream open every `heartbeatInterval`; the server's shutdown ends it.
    ///
    /// `tick` runs on the stream's task: what it reads costs per tick, and nothing follows the journal on the
    /// pushes' event loops.
    func ticking(
        opening comment: String, event name: String, every interval: Duration, after start: UInt64,
        tick: @escaping @Sendable (_ after: UInt64) -> (id: UInt64, json: String?)
    ) -> Response {
        let (ticks, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let timer = Task {
            while !Task.isCancelled {
                if case .terminated = continuation.yield() { return }
                try await Task.sleep(for: interval)
            }
        }
        let longRequests = self.longRequests
        let registration = longRequests.register { continuation.finish() }
        continuation.onTermination = { _ in
            timer.cancel()
            longRequests.unregister(registration)
        }
        let body = ResponseBody { writer in
            defer { continuation.finish() }
            try await writer.write(ByteBuffer(string: ": \(comment)\n\n"))
            var last = start
            var quietSince = ContinuousClock.now
            for await _ in ticks {
                let (id, json) = tick(last)
                last = id
                if let json {
                    try await writer.write(ByteBuffer(string: "id: \(id)\nevent: \(name)\ndata: \(json)\n\n"))
                    quietSince = .now
                } else if quietSince.duration(to: .now) >= Self.heartbeatInterval {
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    quietSince = .now
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }
}
