import Hummingbird
import NIOCore

/// The inspector on the control port: the page at its own paths, its files under `/assets/`, and `GET /v1/info`.
///
/// The page is a client of the control API and nothing else: it routes itself from `location.pathname`, so each of
/// `pagePaths` answers the same `index.html`, and it builds every view from the documented `/v1` routes. These
/// routes never need the control token (the page asks for it on a 401 from `/v1`), and every answer carries
/// `securityHeaders`: the page runs no inline script and fetches nothing from anywhere else.
struct InspectorRoutes: Sendable {
    /// What `GET /v1/info` answers.
    let info: InspectorInfo
    /// The control API's URL, known once it listens.
    let controlURL: @Sendable () -> String

    /// The page's paths (`{…}` stands for one path segment): each answers `index.html`.
    static let pagePaths = [
        "/", "/push/{seq}", "/compare/{a}/{b}", "/activities", "/activity/{id}", "/phones", "/phones/{id}",
        "/connections", "/world",
    ]

    /// Where the page's files are served: `/assets/app.js` is `Assets/app.js`.
    static let assetsPrefix = "/assets/"

    /// The headers of every page and asset answer: a strict Content-Security-Policy (only this origin's scripts,
    /// styles and images, no plugin, no `<base>`, no form posting, no framing), no MIME sniffing, no referrer.
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        .init("Referrer-Policy")!: "no-referrer",
        // Revalidated each time, so that a new binary's page is never mixed with an old one's cached files.
        .cacheControl: "no-cache",
    ]

    /// Adds the page and asset routes and `GET /v1/info` to `router`.
    func register(on router: Router<BasicRequestContext>) {
        for path in Self.pagePaths {
            router.get(RouterPath(path)) { _, _ in Self.page() }
        }
        router.get("/assets/**") { request, _ in Self.asset(path: request.uri.path) }
        router.get("/v1/info") { _, _ in ControlResponse.json(self.info.json(controlURL: self.controlURL())) }
    }

    /// Whether `path` is one of the page's or an asset's: those need no control token.
    static func isPublic(_ path: String) -> Bool {
        if path.hasPrefix(assetsPrefix) { return true }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return pagePaths.contains { pattern in
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            return parts.count == segments.count
                && zip(parts, segments).allSatisfy { part, segment in
                    part.hasPrefix("{") ? !segment.isEmpty : part == segment
                }
        }
    }

    /// `index.html`, for every page path.
    static func page() -> Response {
        guard let page = InspectorAsset.page else {
            return answer(
                ControlResponse.error("this build has no inspector page (Assets/index.html is missing)", status: 500))
        }
        return answer(page)
    }

    /// The asset at `path` (`/assets/app.js`), or 404 naming the assets there are.
    static func asset(path: String) -> Response {
        let name = String(path.dropFirst(assetsPrefix.count))
        guard let asset = InspectorAsset.all[name] else {
            let names = InspectorAsset.all.keys.sorted().joined(separator: ", ")
            return answer(ControlResponse.error("no asset '\(name)'; the assets are: \(names)", status: 404))
        }
        return answer(asset)
    }

    private static func answer(_ asset: InspectorAsset) -> Response {
        var headers = securityHeaders
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: asset.bytes))
    }

    private static func answer(_ response: Response) -> Response {
        var response = response
        for field in securityHeaders { response.headers[field.name] = field.value }
        return response
    }
}
