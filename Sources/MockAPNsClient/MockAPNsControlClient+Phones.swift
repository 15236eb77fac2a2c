import AsyncHTTPClient
import MockAPNs

extension MockAPNsControlClient {
    /// Every simulated phone the mock knows (`GET /v1/phones`).
    public func phones() async throws -> [PhoneSnapshot] {
        let json = try await call("GET", "/v1/phones")
        return try Self.decodeList(json["phones"], "phone list", element: "phone")
    }

    /// The phone `id`, a phone id or one of its tokens (`GET /v1/phones/{id}`), or `nil`.
    public func phone(id: String) async throws -> PhoneSnapshot? {
        do {
            return try Self.decode(try await call("GET", "/v1/phones/\(Self.pathComponent(id))"), "phone")
        } catch let error as MockAPNsControlError where error.status == 404 {
            return nil
        }
    }

    /// Changes the phone `id` (`PATCH /v1/phones/{id}`).
    public func updatePhone(id: String, _ fields: JSONValue) async throws -> PhoneSnapshot {
        try Self.decode(
            try await call("PATCH", "/v1/phones/\(Self.pathComponent(id))", body: fields.jsonText), "phone")
    }

    /// Changes the app `bundleID` on the phone `id` (`PATCH /v1/phones/{id}/apps/{bundle}`).
    public func updatePhoneApp(id: String, bundleID: String, _ fields: JSONValue) async throws -> PhoneSnapshot {
        let path = "/v1/phones/\(Self.pathComponent(id))/apps/\(Self.pathComponent(bundleID))"
        return try Self.decode(try await call("PATCH", path, body: fields.jsonText), "phone")
    }

    /// Restarts the phone `id` (`POST /v1/phones/{id}/restart`).
    public func restartPhone(id: String) async throws -> PhoneSnapshot {
        try Self.decode(try await call("POST", "/v1/phones/\(Self.pathComponent(id))/restart"), "phone")
    }
}
