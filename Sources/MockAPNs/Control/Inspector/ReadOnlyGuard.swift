import Hummingbird

/// Answers every `/v1` call that would change something (any method but GET and HEAD) with 409 `read-only: …`:
/// the inspector over a journal file shows what a run recorded and changes nothing.
struct ReadOnlyGuard<Context: RequestContext>: RouterMiddleware {
    /// The journal file shown, for the message.
    let file: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method != .get, request.method != .head, request.uri.path.hasPrefix("/v1/") else {
            return try await next(request, context)
        }
        return ControlResponse.error(
            "read-only: mock-apns inspect shows the journal file \(file); \(request.method) \(request.uri.path) "
                + "changes a running mock (mock-apns serve)",
            status: 409)
    }
}
