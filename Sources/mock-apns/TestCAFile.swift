import Foundation
import MockAPNs

/// The file that holds the embedded test CA for clients to trust: what `serve`'s banner prints (and its TLS failure
/// log names) and what `push --curl` passes to `--cacert`.
enum TestCAFile {
    /// Where the file is, as an absolute path, and whether it was written to the temporary folder.
    struct Location {
        var path: String
        /// `true` when no `certs/ca.pem` here holds the embedded CA, so the CA was written to the temporary folder.
        var written: Bool
    }

    /// `certs/ca.pem` of the current folder when it holds the embedded CA (a checkout), else the embedded CA written
    /// to `mock-apns-ca.pem` in the temporary folder; absolute either way, so a command that names it works when
    /// pasted in any folder.
    static func locate() throws -> Location {
        let pem = TestCredentials.caPEM.trimmingCharacters(in: .whitespacesAndNewlines)
        let local = URL(fileURLWithPath: "certs/ca.pem").standardizedFileURL.path
        if let text = try? String(contentsOfFile: local, encoding: .utf8),
            text.trimmingCharacters(in: .whitespacesAndNewlines) == pem
        {
            return Location(path: local, written: false)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mock-apns-ca.pem").path
        do { try (pem + "\n").write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw CLIError("cannot write the test CA to \(path): \(error.localizedDescription)")
        }
        return Location(path: path, written: true)
    }
}
