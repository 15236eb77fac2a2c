import Hummingbird

extension ControlHandlers {
    /// `GET /v1/activities/stream`: server-sent events, one `activity` event per change of an activity that
    /// matches the filters after the change (started, pushed with its outcome, rotated, dismissed), from the moment
    /// the stream opens. Each event's id is the change's sequence number.
    func streamActivities(_ request: Request) throws -> Response {
        let (query, _) = try ActivityQuery.parse(Self.parameters(request))
        let registry = server.engine.activities
        let server = self.server
        return ControlEventStream(longRequests: longRequests).response(
            opening: "mock-apns activity changes matching \(query.summary)", event: "activity",
            sequence: \.sequence
        ) { continuation in
            let watcher = registry.addWatcher { event in
                let snapshot = server.control.snapshot(event.activity)
                guard query.matches(snapshot) else { return }
                continuation.yield(
                    .item(
                        ActivityChange(
                            sequence: event.sequence, kind: event.kind, outcome: event.outcome, activity: snapshot)))
            }
            return { registry.removeWatcher(watcher) }
        }
    }
}
