import AsyncHTTPClient
import MockAPNs
import NIOCore

extension MockAPNsControlClient {
    /// The records matching `query` as they are recorded, from `GET /v1/requests/stream` (server-sent events).
    ///
    /// With `query.since` the records after that sequence number come first. The sequence ends when the server
    /// stops; cancel the consuming task to stop earlier.
    public func streamRecords(_ query: JournalQuery) -> AsyncThrowingStream<JournalRecord, any Error> {
        serverSentEvents(
            "/v1/requests/stream", query: query.parameters, event: "record", what: "records")
    }

    /// The `event` events of the server-sent event stream at `path`, each read as an `Item`: the one reader of
    /// the control API's streams (records, activity changes). `what` names the items in messages.
    func serverSentEvents<Item: JSONMapped & Sendable>(
        _ path: String, query: [(name: String, value: String)], event name: String, what: String
    ) -> AsyncThrowingStream<Item, any Error> {
        let request = makeRequest("GET", path, query: query, body: nil)
        let client = httpClient
        let url = url
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let response: HTTPClientResponse
                    do {
                        response = try await client.execute(request, deadline: .distantFuture)
                    } catch let error where !(error is CancellationError) {
                        throw Self.unreachable(url: url, error: error, timeout: nil)
                    }
                    guard response.status.code == 200 else {
                        let body = try await response.body.collect(upTo: 1 << 20)
                        let text = String(buffer: body)
                        throw Self.error(
                            status: Int(response.status.code), json: try? JSONParser.parse(text), text: text)
                    }
                    var parser = ServerSentEventParser()
                    for try await chunk in response.body {
                        for event in parser.feed(String(buffer: chunk)) where event.name == name {
                            guard let json = try? JSONParser.parse(event.data), let item = Item(json: json)
                            else { throw Self.unreadable("streamed \(name)") }
                            continuation.yield(item)
                        }
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch let error as MockAPNsControlError {
                    continuation.finish(throwing: error)
                } catch {
                    continuation.finish(
                        throwing: MockAPNsControlError(
                            status: Self.unreachableStatus,
                            "the stream of \(what) from \(url) broke off: \(error). Did the server stop?"))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Splits a server-sent event stream into events (`event:`, `data:` and `id:` lines, blank line between).
struct ServerSentEventParser {
    /// One event.
    struct Event: Equatable {
        var name = "message"
        var data = ""
        var id: String?
    }

    private var pending = ""
    private var current = Event()
    private var hasData = false

    /// Takes the next chunk of text and returns the events it completed.
    mutating func feed(_ text: String) -> [Event] {
        pending += text
        var events: [Event] = []
        while let newline = pending.firstIndex(of: "\n") {
            var line = String(pending[..<newline])
            pending.removeSubrange(...newline)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty {
                if hasData { events.append(current) }
                current = Event()
                hasData = false
                continue
            }
            if line.hasPrefix(":") { continue }
            let field: Substring
            var value: Substring
            if let colon = line.firstIndex(of: ":") {
                field = line[..<colon]
                value = line[line.index(after: colon)...]
                if value.hasPrefix(" ") { value = value.dropFirst() }
            } else {
                field = line[...]
                value = ""
            }
            switch field {
            case "event": current.name = String(value)
            case "data":
                current.data += hasData ? "\n" + value : String(value)
                hasData = true
            case "id": current.id = String(value)
            default: break
            }
        }
        return events
    }
}
