/// The Live Activity operations by name, for tests: `try await server.activities()`.
extension MockAPNsControl {
    /// Every activity at the mock's clock, in start order.
    public func activities() async throws -> [ActivitySnapshot] {
        try await activities(ActivityQuery())
    }

    /// Waits until an activity of `type` (any type when `nil`) is in `state` (any state when `nil`); the first
    /// that is, or `nil` after `timeout`.
    public func waitForActivity(
        type: String? = nil, state: ActivityState? = nil, timeout: Duration = .seconds(5)
    ) async throws -> ActivitySnapshot? {
        try await waitForActivity(ActivityQuery(state: state, type: type), timeout: timeout)
    }
}
