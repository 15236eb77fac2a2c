import AsyncHTTPClient
import Foundation
import MockAPNs
import NIOCore
import NIOHTTP1

extension MockAPNsControlClient {
    /// The largest answer read (a full journal of 100,000 records is about this big).
    static let maximumAnswerSize = 512 << 20

    /// The full URL of `path` with `query` percent-encoded.
    func address(_ path: String, query: [(name: String, value: String)] = []) -> String {
        guard !query.isEmpty else { return url + path }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        let items = query.map { item in
            "\(item.name)=\(item.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? item.value)"
        }
        return url + path + "?" + items.joined(separator: "&")
    }

    /// A request with the token and content type set.
    func makeRequest(_ method: String, _ path: String, query: [(name: String, value: String)], body: String?)
        -> HTTPClientRequest
    {
        var request = HTTPClientRequest(url: address(path, query: query))
        request.method = HTTPMethod(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        return request
    }

    /// Sends one request and reads its JSON answer; 4xx and 5xx (but `accepting`) become thrown errors.
    func call(
        _ method: String, _ path: String, query: [(name: String, value: String)] = [], body: String? = nil,
        timeout: Duration? = nil, accepting: Set<Int> = []
    ) async throws -> JSONValue {
        let request = makeRequest(method, path, query: query, body: body)
        let limit = timeout ?? requestTimeout
        let response: HTTPClientResponse
        do {
            response = try await httpClient.execute(request, timeout: .milliseconds(Self.milliseconds(limit)))
        } catch {
            throw Self.unreachable(url: url, error: error, timeout: limit)
        }
        let buffer = try await response.body.collect(upTo: Self.maximumAnswerSize)
        let text = String(buffer: buffer)
        let json = try? JSONParser.parse(text)
        let status = Int(response.status.code)
        if (200..<300).contains(status) || accepting.contains(status) {
            guard let json else { throw Self.unreadable("answer") }
            return json
        }
        guard json?["error"] != nil else {
            // Not one of the control API's refusals: another server, or a proxy, answered at this URL.
            var error = MockAPNsControlError(
                status: status,
                "\(url) answered HTTP \(status) without a mock-apns error; is it the control API's URL? "
                    + "(serve prints it in its banner)")
            error.overHTTP = true
            throw error
        }
        throw Self.error(status: status, json: json, text: text)
    }

    /// The error a refusal stands for: a `ScenarioError` for 422, else a `MockAPNsControlError`.
    static func error(status: Int, json: JSONValue?, text: String) -> any Error {
        let message = json?["error"]?.stringValue ?? (text.isEmpty ? "HTTP \(status)" : text)
        if status == 422, let json, let detail = json["message"]?.stringValue {
            return ScenarioError(
                line: json["line"]?.unsignedValue.map { Int($0) },
                column: json["column"]?.unsignedValue.map { Int($0) },
                field: json["field"]?.stringValue ?? "", message: detail)
        }
        var error = MockAPNsControlError(status: status, message)
        error.overHTTP = true
        return error
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
