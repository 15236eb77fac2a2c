import MockAPNs

extension MockAPNsControlClient {
    /// The changes of the activities matching `query` as they happen, from `GET /v1/activities/stream`
    /// (server-sent events), from the moment the stream opens.
    ///
    /// The sequence ends when the server stops; cancel the consuming task to stop earlier.
    public func streamActivities(_ query: ActivityQuery) -> AsyncThrowingStream<ActivityChange, any Error> {
        serverSentEvents(
            "/v1/activities/stream", query: query.parameters, event: "activity", what: "activity changes")
    }
}
