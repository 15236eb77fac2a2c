import Hummingbird
import NIOCore

/// Builds the control API's answers: JSON (with a trailing newline, for terminals), text and errors.
enum ControlResponse {
    /// `json` with `status`.
    static func json(_ json: JSONValue, status: Int = 200) -> Response {
        var text = json.jsonText
        text += "\n"
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// `{"error": message}` with `status`, plus `extra` members.
    static func error(_ message: String, status: Int, extra: [(String, JSONValue)] = []) -> Response {
        json(.object([("error", .string(message))] + extra), status: status)
    }

    /// Plain text with `contentType`.
    static func text(_ text: String, contentType: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: contentType], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A scenario, rule or device document that did not load: 422 with where and what.
    static func scenarioError(_ error: ScenarioError) -> Response {
        var extra: [(String, JSONValue)] = []
        if let line = error.line { extra.append(("line", .number(String(line)))) }
        if let column = error.column { extra.append(("column", .number(String(column)))) }
        extra.append(("field", .string(error.field)))
        extra.append(("message", .string(error.message)))
        return self.error(error.description, status: 422, extra: extra)
    }
}
