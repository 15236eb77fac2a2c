import Foundation
import NIOCore

/// One file of the inspector's page as the binary holds it: its path under `Assets/`, its bytes and its type.
///
/// The files are built into the binary (`EmbedInspectorAssets` plugin): an installed or packaged binary serves the
/// page with no file beside it. Adding an asset is adding its file to `Control/Inspector/Assets/`; a file whose
/// extension is not in `contentTypes` is not served (a test checks that every file is).
struct InspectorAsset: Sendable {
    /// The path under `Assets/`: `app.js`, `views/push.js`.
    let path: String
    /// The file's bytes (shared by every answer).
    let bytes: ByteBuffer
    /// The `Content-Type` it is served with.
    let contentType: String

    /// The types served, by file extension; any other file is not served.
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "json": "application/json; charset=utf-8",
    ]

    /// Every embedded file of a served type, by path; decoded once, on first use.
    static let all: [String: InspectorAsset] = {
        var assets: [String: InspectorAsset] = [:]
        for file in EmbeddedInspectorAssets.files {
            let path = file.path
            guard let type = path.split(separator: ".").last.flatMap({ contentTypes[String($0)] }),
                let data = Data(base64Encoded: file.base64.description)
            else { continue }
            assets[path] = InspectorAsset(path: path, bytes: ByteBuffer(bytes: data), contentType: type)
        }
        return assets
    }()

    /// The page every page route answers: `index.html`.
    static var page: InspectorAsset? { all["index.html"] }
}
