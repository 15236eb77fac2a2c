import Foundation

extension ControlHandlers {
    /// The folder relative paths in a `PUT /v1/scenario` body start from: `?base=DIR`, else `fallback`.
    ///
    /// A relative `base` is taken from the server's working directory. Unknown query parameters are refused, so
    /// that a misspelt `?bse=` does not silently load against the default folder.
    static func scenarioBase(_ parameters: [(name: String, value: String)], default fallback: String) throws -> String {
        var base: String?
        for parameter in parameters {
            guard parameter.name == "base" else {
                let hint = NameSuggestion.hint(for: parameter.name, among: ["base"])
                throw MockAPNsControlError.badRequest(
                    "unknown query parameter '\(parameter.name)'\(hint); "
                        + "PUT /v1/scenario takes only base=DIR, the folder relative paths in the body start from"
                )
            }
            guard base == nil else { throw MockAPNsControlError.badRequest("base is given more than once") }
            base = parameter.value
        }
        guard let base else { return fallback }
        guard !base.isEmpty else {
            throw MockAPNsControlError.badRequest("base is empty; give a folder on the server, such as base=/srv/mock")
        }
        let path = URL(fileURLWithPath: base).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MockAPNsControlError.badRequest(
                "base '\(base)' is not a folder on the server (\(path)); relative paths are taken from the server's "
                    + "working directory, \(FileManager.default.currentDirectoryPath)"
            )
        }
        return path
    }

    /// Runs a load and, when a file named in the body cannot be read, says which folder it was looked up in.
    static func withBaseHint<T>(_ base: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch var error as ScenarioError where error.message.hasPrefix("cannot read ") {
            error.message +=
                " (relative paths in a PUT /v1/scenario body start from \(base); send ?base=DIR for another folder,"
                + " or absolute paths)"
            throw error
        }
    }
}
