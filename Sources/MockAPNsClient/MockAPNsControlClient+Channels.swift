import MockAPNs

extension MockAPNsControlClient {
    /// Every live broadcast channel (`GET /v1/channels`).
    public func channels() async throws -> [ChannelSnapshot] {
        let json = try await call("GET", "/v1/channels")
        return try Self.decodeList(json["channels"], "channel list", element: "channel")
    }

    /// The live broadcast channel `id` (`GET /v1/channels/{id}`), or `nil`.
    public func channel(id: String) async throws -> ChannelSnapshot? {
        do {
            return try Self.decode(try await call("GET", "/v1/channels/\(Self.pathComponent(id))"), "channel")
        } catch let error as MockAPNsControlError where error.status == 404 {
            return nil
        }
    }
}
