import MockAPNs

extension MockAPNsControlClient {
    /// What the running mock says of itself (`GET /v1/info`): `apnsURL`, `channelsURL`, `controlURL`, `caFile`,
    /// `keyFile`, … as `serve --ready-json` prints them; a client finds the mock's endpoints here.
    public func info() async throws -> JSONValue {
        try await call("GET", "/v1/info")
    }
}
