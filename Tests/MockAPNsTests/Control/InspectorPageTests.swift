import Foundation
import Testing

@testable import MockAPNs

/// The inspector's page and assets on the control port, fetched with curl from a really started server.
@Suite("Inspector page and assets", .serialized)
struct InspectorPageTests {
    /// The folder the assets are built from.
    static let assetsFolder = AuthTestFiles.packageRoot.appendingPathComponent(
        "Sources/MockAPNs/Control/Inspector/Assets")
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; "
        + "frame-ancestors 'none'"
    /// The type each kind of asset must be served with.
    static let expectedTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "json": "application/json; charset=utf-8",
    ]

    /// Every file under `Assets/`, as a path relative to it.
    static func assetPaths() throws -> [String] {
        let root = assetsFolder.standardizedFileURL.path
        let found = FileManager.default.enumerator(atPath: root)
        var paths: [String] = []
        while let path = found?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let full = root + "/" + path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue,
                !(path as NSString).lastPathComponent.hasPrefix(".")
            else { continue }
            paths.append(path)
        }
        return paths.sorted()
    }

    /// Checks the headers every page and asset answer carries.
    static func expectSecurityHeaders(_ answer: InspectorCurl.Answer, _ what: String) {
        #expect(answer.headers["content-security-policy"] == contentSecurityPolicy, "\(what)")
        #expect(answer.headers["x-content-type-options"] == "nosniff", "\(what)")
        #expect(answer.headers["referrer-policy"] == "no-referrer", "\(what)")
    }

    @Test("every page path answers index.html with the security headers, and needs no control token")
    func pagePathsAnswerThePage() async throws {
        let index = try Data(contentsOf: Self.assetsFolder.appendingPathComponent("index.html"))
        try await withControlServer(token: "s3cret") { _, control in
            let paths = ["/", "/push/7", "/compare/1/2", "/activities", "/activity/0c6f1a2b", "/connections", "/world",
                "/phones", "/phones/alice"]
            for path in paths {
                let answer = try await InspectorCurl.call(control.url, path)
                #expect(answer.status == 200, "\(path)")
                #expect(answer.headers["content-type"] == "text/html; charset=utf-8", "\(path)")
                #expect(answer.body == index, "\(path)")
                Self.expectSecurityHeaders(answer, path)
            }
            #expect(try await InspectorCurl.call(control.url, "/assets/app.js").status == 200)
            // The API behind the page stays closed without the token.
            let closed = try await InspectorCurl.call(control.url, "/v1/requests")
            #expect(closed.status == 401)
            let open = try await InspectorCurl.call(
                control.url, "/v1/requests", headers: ["Authorization": "Bearer s3cret"])
            #expect(open.status == 200)
            // A path that only looks like a page's is not one: it needs the token like any other route.
            #expect(try await InspectorCurl.call(control.url, "/push/7/more").status == 401)
            #expect(try await InspectorCurl.call(control.url, "/metrics").status == 401)
        }
    }

    @Test("serves every file in Assets/ byte for byte, with its type and the security headers")
    func servesEveryAsset() async throws {
        let paths = try Self.assetPaths()
        #expect(paths.contains("index.html") && paths.contains("app.js") && paths.contains("app.css"))
        try await withControlServer { _, control in
            for path in paths {
                let answer = try await InspectorCurl.call(control.url, "/assets/\(path)")
                let type = Self.expectedTypes[(path as NSString).pathExtension]
                #expect(type != nil, "Assets/\(path): a file of a type the inspector does not serve")
                #expect(answer.status == 200, "Assets/\(path) is not served: \(answer.text)")
                #expect(answer.headers["content-type"] == type, "Assets/\(path)")
                #expect(answer.body == (try Data(contentsOf: Self.assetsFolder.appendingPathComponent(path))))
                Self.expectSecurityHeaders(answer, path)
            }
        }
    }

    @Test("index.html loads app.js as a module and app.css, with no inline script or style and no other origin")
    func pageKeepsToItsPolicy() throws {
        let html = try String(contentsOf: Self.assetsFolder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains(#"<script type="module" src="/assets/app.js"></script>"#))
        #expect(html.contains(#"href="/assets/app.css""#))
        // The policy would block these in a browser; catch them here, where the message says why.
        let inlineScript = try Regex(#"<script(?![^>]*\ssrc=)[^>]*>"#)
        #expect(html.firstMatch(of: inlineScript) == nil, "an inline <script>: the policy blocks it")
        #expect(!html.contains(" style="), "an inline style= attribute: the policy blocks it")
        let elsewhere = try Regex(#"(src|href)\s*=\s*["']?(https?:|//)"#)
        #expect(html.firstMatch(of: elsewhere) == nil, "a URL of another origin: the page fetches nothing from one")
    }

    @Test("refuses an unknown asset and path traversal with 404, never a file from elsewhere")
    func refusesUnknownAssetsAndTraversal() async throws {
        try await withControlServer(token: "s3cret") { _, control in
            let unknown = try await InspectorCurl.call(control.url, "/assets/nope.js")
            #expect(unknown.status == 404)
            #expect(unknown.error?.contains("no asset 'nope.js'; the assets are: ") == true)
            #expect(unknown.error?.contains("app.js") == true)
            Self.expectSecurityHeaders(unknown, "unknown asset")
            for path in [
                "/assets/../Package.swift", "/assets/../../Package.swift", "/assets/..%2fPackage.swift",
                "/assets/%2e%2e/Package.swift", "/assets/", "/assets/./app.js", "/assets//app.js",
                "/assets/app.js/", "/assets/APP.JS",
            ] {
                let answer = try await InspectorCurl.call(control.url, path, pathAsIs: true)
                #expect([401, 404].contains(answer.status), "\(path): \(answer.status)")
                #expect(!answer.text.contains("PackageDescription"), "\(path) served a file from outside Assets/")
            }
        }
    }
}
