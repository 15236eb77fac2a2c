import AsyncHTTPClient
import MockAPNs

extension MockAPNsControlClient {
    /// The activities that match `query` at the mock's clock (`GET /v1/activities`).
    public func activities(_ query: ActivityQuery) async throws -> [ActivitySnapshot] {
        let json = try await call("GET", "/v1/activities", query: query.parameters)
        return try Self.decodeList(json["activities"], "activity list", element: "activity")
    }

    /// The activity with `id` (`GET /v1/activities/{id}`), or `nil`.
    public func activity(id: String) async throws -> ActivitySnapshot? {
        do {
            return try Self.decode(try await call("GET", "/v1/activities/\(Self.pathComponent(id))"), "activity")
        } catch let error as MockAPNsControlError where error.status == 404 {
            return nil
        }
    }

    /// Waits until an activity matches `query` (`GET /v1/activities/wait`); `nil` after `timeout`.
    public func waitForActivity(_ query: ActivityQuery, timeout: Duration) async throws -> ActivitySnapshot? {
        let parameters = query.parameters + [("timeout", ControlDuration.text(timeout))]
        let json = try await call(
            "GET", "/v1/activities/wait", query: parameters, timeout: timeout + requestTimeout, accepting: [408])
        return json["error"] == nil ? try Self.decode(json, "activity") : nil
    }

    /// Gives the running activity `id` a new update token (`POST /v1/activities/{id}/rotate-token`).
    public func rotateActivityToken(id: String) async throws -> ActivitySnapshot {
        try Self.decode(try await call("POST", "/v1/activities/\(Self.pathComponent(id))/rotate-token"), "activity")
    }

    /// The person swipes the activity `id` away (`POST /v1/activities/{id}/dismiss`).
    public func dismissActivity(id: String) async throws -> ActivitySnapshot {
        try Self.decode(try await call("POST", "/v1/activities/\(Self.pathComponent(id))/dismiss"), "activity")
    }

    /// Starts an activity as the app would (`POST /v1/activities`).
    public func startActivity(_ start: ActivityStart) async throws -> ActivitySnapshot {
        try Self.decode(try await call("POST", "/v1/activities", body: start.json.jsonText), "activity")
    }
}
