import Foundation
import MockAPNs

/// The files that hold the embedded test CA and signing key for clients: what `serve`'s banner prints (and its TLS
/// failure log names), what `push --curl` passes to `--cacert`, and what `serve --ready-json` and `/v1/info` name.
enum TestCAFile {
    /// Where the file is, as an absolute path, and whether it was written to the temporary folder.
    struct Location {
        var path: String
        /// `true` when no file of the checkout's `certs/` holds the embedded text, so it was written to the temporary
        /// folder.
        var written: Bool
    }

    /// `certs/ca.pem` of the current folder when it holds the embedded CA (a checkout), else the embedded CA written
    /// to `mock-apns-ca.pem` in the temporary folder; absolute either way, so a command that names it works when
    /// pasted in any folder.
    static func locate() throws -> Location {
        try locate(TestCredentials.caPEM, checkout: "certs/ca.pem", temporaryName: "mock-apns-ca.pem", what: "CA")
    }

    /// `certs/AuthKey_TESTKEY001.p8` of the current folder when it holds the embedded signing key, else that key
    /// written to `mock-apns-AuthKey_TESTKEY001.p8` in the temporary folder (readable by its owner only).
    static func locateSigningKey() throws -> Location {
        let name = "AuthKey_\(TestCredentials.keyID).p8"
        return try locate(
            TestCredentials.signingKeyPEM, checkout: "certs/\(name)", temporaryName: "mock-apns-\(name)",
            what: "signing key")
    }

    private static func locate(_ text: String, checkout: String, temporaryName: String, what: String) throws
        -> Location
    {
        let pem = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let local = URL(fileURLWithPath: checkout).standardizedFileURL.path
        if let found = try? String(contentsOfFile: local, encoding: .utf8),
            found.trimmingCharacters(in: .whitespacesAndNewlines) == pem
        {
            return Location(path: local, written: false)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(temporaryName).path
        do {
            try (pem + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        } catch {
            throw CLIError("cannot write the test \(what) to \(path): \(error.localizedDescription)")
        }
        return Location(path: path, written: true)
    }
}
