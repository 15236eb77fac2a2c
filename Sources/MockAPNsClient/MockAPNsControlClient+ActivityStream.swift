import AsyncHTTPClient
import MockAPNs
import NIOCore

extension MockAPNsControlClient {
    /// The changes of the activities matching `query` as they happen, from `GET /v1/activities/stream`
    /// (server-sent events), from the moment the stream opens.
    ///
    /// The sequence ends when the server stops; cancel the consuming task to stop earlier.
    public func streamActivities(_ query: ActivityQuery) -> AsyncThrowingStream<ActivityChange, any Error> {
        let request = makeRequest("GET", "/v1/activities/stream", query: query.parameters, body: nil)
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
                        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
                        throw Self.error(
                            status: Int(response.status.code), json: try? JSONParser.parse(text), text: text)
                    }
                    var parser = ServerSentEventParser()
                    for try await chunk in response.body {
                        for event in parser.feed(String(buffer: chunk)) where event.name == "activity" {
                            guard let json = try? JSONParser.parse(event.data), let change = ActivityChange(json: json)
                            else { throw Self.unreadable("streamed activity change") }
                            continuation.yield(change)
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
                            "the stream of activity changes from \(url) broke off: \(error). Did the server stop?"))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
