import Hummingbird

/// Refuses the control API's state-changing calls (every `/v1` method but GET and HEAD) when they come from
/// another site's page: the inspector's replay, reset and clock buttons must not be pressable by a page the person
/// happens to have open in another tab.
///
/// A browser names the page that makes a call: `Origin` on every POST, PUT and DELETE, and `Sec-Fetch-Site`. A call
/// is refused (403) when `Sec-Fetch-Site` is `cross-site`, or when it has an `Origin` that is not this listener's
/// own: `http://` with the bound port, and a host that is the bound address (a loopback listener answers to
/// `localhost`, `127.0.0.1` and `[::1]` alike; a wildcard or other address to the `Host` the call was sent to).
/// Checking the host too keeps out a page whose own name was made to resolve to 127.0.0.1 (DNS rebinding). curl,
/// scripts and the testing library send no `Origin` and pass.
struct CrossSiteGuard<Context: RequestContext>: RouterMiddleware {
    /// The address the control API is bound to.
    let host: String
    /// The port it is bound to, known once it listens.
    let port: @Sendable () -> Int

    /// The names a loopback listener is reached by.
    static var loopbackNames: Set<String> { ["localhost", "127.0.0.1", "::1"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method != .get, request.method != .head, request.uri.path.hasPrefix("/v1/") else {
            return try await next(request, context)
        }
        let fetchSite = request.headers[.init("Sec-Fetch-Site")!]
        if fetchSite == "cross-site" {
            return refusal("the browser says it comes from another site (Sec-Fetch-Site: cross-site)")
        }
        if let origin = request.headers[.origin], !isOwn(origin: origin, authority: request.head.authority) {
            let own = MockAPNsControlAPI.url(host: host, port: port())
            return refusal("it comes from a page of \(origin), not of this control API (\(own))")
        }
        return try await next(request, context)
    }

    /// Whether `origin` (`http://localhost:2190`) is this listener's own, for a call sent to `authority` (its
    /// `Host`).
    func isOwn(origin: String, authority: String?) -> Bool {
        guard let (originHost, originPort) = Self.hostAndPort(origin, scheme: "http://"), originPort == port()
        else { return false }
        let bound = Self.unbracketed(host)
        if Self.loopbackNames.contains(bound) { return Self.loopbackNames.contains(originHost) }
        if bound == originHost { return true }
        let wildcard = bound == "0.0.0.0" || bound == "::"
        guard let authority, let (sentHost, _) = Self.hostAndPort("http://" + authority, scheme: "http://") else {
            return false
        }
        return wildcard && sentHost == originHost
    }

    /// The host (lower-cased, without IPv6 brackets) and port (80 when not given) of `text`, a URL origin that
    /// starts with `scheme`; `nil` for anything else (another scheme, `null`, a path).
    static func hostAndPort(_ text: String, scheme: String) -> (host: String, port: Int)? {
        let lowered = text.lowercased()
        guard lowered.hasPrefix(scheme) else { return nil }
        let rest = lowered.dropFirst(scheme.count)
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@") else { return nil }
        var host = Substring(rest)
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else { return nil }
        guard let portText else { return (String(host), 80) }
        guard portText.count <= 5, let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host.lowercased()
    }

    private func refusal(_ why: String) -> Response {
        ControlResponse.error(
            "cross-site request refused: \(why); the routes that change the mock take calls from the inspector "
                + "page, scripts and curl, never from another site's page",
            status: 403)
    }
}
