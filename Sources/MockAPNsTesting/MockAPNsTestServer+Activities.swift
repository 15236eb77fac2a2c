import MockAPNs

extension MockAPNsTestServer {
    /// The simulated phone's Live Activities that match `query` at the mock's clock, in start order.
    public func activities(_ query: ActivityQuery) async throws -> [ActivitySnapshot] {
        try await server.activities(query)
    }
    /// The activity with `id`, or `nil`.
    public func activity(id: String) async throws -> ActivitySnapshot? { try await server.activity(id: id) }
    /// Waits until an activity matches `query` or `timeout` passes; the first that does, or `nil`.
    public func waitForActivity(_ query: ActivityQuery, timeout: Duration) async throws -> ActivitySnapshot? {
        try await server.waitForActivity(query, timeout: timeout)
    }
    /// Gives the running activity `id` a new update token.
    public func rotateActivityToken(id: String) async throws -> ActivitySnapshot {
        try await server.rotateActivityToken(id: id)
    }
    /// The person swipes the activity `id` away.
    public func dismissActivity(id: String) async throws -> ActivitySnapshot {
        try await server.dismissActivity(id: id)
    }
    /// Starts an activity as the app would.
    public func startActivity(_ start: ActivityStart) async throws -> ActivitySnapshot {
        try await server.startActivity(start)
    }
}
