import AsyncHTTPClient
import MockAPNs

extension MockAPNsControlClient {
    /// Sends record `sequence`'s request again, `edit` applied (`POST /v1/requests/{seq}/replay`), and answers the
    /// new record. Over HTTP the payload travels as text: bytes that are not UTF-8 arrive repaired.
    public func replay(_ sequence: UInt64, edit: ReplayEdit?) async throws -> JournalRecord {
        var body: String?
        if let edit {
            var members: [(String, JSONValue)] = []
            if let headers = edit.headers {
                members.append(("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) })))
            }
            if let payload = edit.payload {
                members.append(("payload", .string(String(decoding: payload, as: UTF8.self))))
            }
            body = JSONValue.object(members).jsonText
        }
        let json = try await call("POST", "/v1/requests/\(sequence)/replay", body: body)
        return try Self.decode(json["record"], "replayed record")
    }

    /// Record `sequence` as a curl command to the mock's APNs port (`GET /v1/requests/{seq}/curl`).
    public func curl(_ sequence: UInt64) async throws -> String {
        let request = makeRequest("GET", "/v1/requests/\(sequence)/curl", query: [], body: nil)
        let response: HTTPClientResponse
        do {
            response = try await httpClient.execute(request, timeout: .milliseconds(Self.milliseconds(requestTimeout)))
        } catch {
            throw Self.unreachable(url: url, error: error, timeout: requestTimeout)
        }
        let text = String(buffer: try await response.body.collect(upTo: Self.maximumAnswerSize))
        let status = Int(response.status.code)
        guard (200..<300).contains(status) else {
            throw Self.error(status: status, json: try? JSONParser.parse(text), text: text)
        }
        return text
    }

    /// The connections the server's history keeps or a record names, by id (`GET /v1/connections`).
    public func connections() async throws -> [ConnectionSummary] {
        let json = try await call("GET", "/v1/connections")
        return try Self.decodeList(json["connections"], "connection list", element: "connection")
    }

    /// Connection `id`, or `nil` (`GET /v1/connections/{id}`).
    public func connection(id: UInt64) async throws -> ConnectionSummary? {
        do {
            return try Self.decode(try await call("GET", "/v1/connections/\(id)"), "connection")
        } catch let error as MockAPNsControlError where error.status == 404 {
            return nil
        }
    }
}
