import Hummingbird

/// Turns every failure into a JSON answer `{"error": ...}` and checks the bearer token when one is set.
struct ControlErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The token every route but `/healthz` and the inspector's page and assets requires as
    /// `Authorization: Bearer <token>`; `nil` for none.
    let token: String?
    /// The routes an unknown route's 404 lists.
    var routes = ControlRoutes.summary

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let token, request.uri.path != "/healthz", !InspectorRoutes.isPublic(request.uri.path) {
            let expected = "Bearer \(token)"
            guard let given = request.headers[.authorization], Self.constantTimeEqual(given, expected) else {
                let problem = request.headers[.authorization] == nil ? "is missing" : "does not match"
                return ControlResponse.error(
                    "the control token \(problem): send the header 'Authorization: Bearer <token>' with the "
                        + "token given to --control-token",
                    status: 401)
            }
        }
        do {
            return try await next(request, context)
        } catch let error as MockAPNsControlError {
            return ControlResponse.error(error.message, status: error.status)
        } catch let error as InputError {
            let refusal = MockAPNsControlError(error)
            return ControlResponse.error(refusal.message, status: refusal.status)
        } catch let error as ScenarioError {
            return ControlResponse.scenarioError(error)
        } catch let error as HTTPError where error.status == .notFound {
            return ControlResponse.error(
                "no route \(request.method) \(request.uri.path); the routes are: \(routes)",
                status: 404)
        } catch let error as HTTPError {
            return ControlResponse.error(error.body ?? "\(error.status)", status: error.status.code)
        } catch {
            return ControlResponse.error("internal error: \(error)", status: 500)
        }
    }

    /// Compares without stopping at the first difference, so timing does not tell how much of a guess was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
