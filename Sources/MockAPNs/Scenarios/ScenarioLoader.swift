import Foundation
import Yams

/// Reads scenario files (YAML) into a `Scenario`, checking every field.
///
/// The loader walks the YAML node tree itself rather than decoding, so that every error names the line,
/// the column and the field path, unknown fields are refused (a typo must not be silently ignored), and a
/// wrong type names the type that was expected. The format is described in `scenarios/README.md`.
public enum ScenarioLoader {
    /// The fields a scenario document may have.
    static let documentFields = [
        "name", "environment", "mode", "unknownDevices", "unknownKeys", "listen", "journal", "keys", "apps",
        "devices", "rules", "fidelity", "limits", "activityTypes", "liveActivity", "expect", "unexpected", "checks",
        "tokenUpload", "phones", "simulation", "channels",
    ]

    /// Reads and checks a scenario file; relative paths inside it are resolved against the file's folder.
    ///
    /// - Parameters:
    ///   - path: the file, absolute or relative to the current directory; errors name it as given.
    ///   - now: the load time, used where a device's `since` is left out.
    public static func load(file path: String, now: Date = Date()) throws(ScenarioError) -> Scenario {
        let url = URL(fileURLWithPath: path)
        let text: String
        do {
            text = try readText(atPath: url.path)
        } catch {
            throw ScenarioError(file: path, message: "cannot read the scenario file: \(error.reason)")
        }
        return try parse(
            yaml: text,
            sourcePath: path,
            baseDirectory: url.deletingLastPathComponent().path,
            now: now
        )
    }

    /// Parses scenario YAML text.
    ///
    /// - Parameters:
    ///   - yaml: the document; an empty one is the default scenario (lenient sandbox, nothing else).
    ///   - sourcePath: the file it came from, for errors and the default name; `nil` for none.
    ///   - baseDirectory: the folder relative paths inside the document (key files, TLS files) start from.
    ///   - now: the load time, used where a device's `since` is left out.
    public static func parse(
        yaml: String,
        sourcePath: String?,
        baseDirectory: String,
        now: Date = Date()
    ) throws(ScenarioError) -> Scenario {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw syntaxError(error, file: sourcePath, yaml: yaml)
        }
        let reader = Reader(file: sourcePath, baseDirectory: baseDirectory, now: now)
        return try reader.scenario(from: root, defaultName: defaultName(for: sourcePath))
    }

    /// The file name without its extension, or `scenario` for text from no file.
    static func defaultName(for sourcePath: String?) -> String {
        guard let sourcePath, !sourcePath.isEmpty else { return "scenario" }
        let name = URL(fileURLWithPath: sourcePath).deletingPathExtension().lastPathComponent
        return name.isEmpty ? "scenario" : name
    }

    /// A Yams error as a `ScenarioError` at the line and column libyaml reported.
    static func syntaxError(_ error: any Error, file: String?, yaml: String) -> ScenarioError {
        func located(_ mark: Mark, _ message: String) -> ScenarioError {
            ScenarioError(file: file, line: mark.line, column: mark.column, message: message)
        }
        func withContext(_ problem: String, _ context: YamlError.Context?) -> String {
            guard let context else { return "invalid YAML: \(problem)" }
            let mark = context.mark
            return "invalid YAML: \(problem) (\(context.text) at line \(mark.line), column \(mark.column))"
        }
        guard let yamlError = error as? YamlError else {
            return ScenarioError(file: file, message: "invalid YAML: \(error)")
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return located(mark, withContext(problem, context))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return located(context.mark, "invalid YAML: the key \(keys) appears more than once in this mapping")
        case .reader(let problem, let offset, _, _):
            guard let offset else { return ScenarioError(file: file, message: "invalid YAML: \(problem)") }
            // Yams gives the reader's position as a count of characters from the start.
            let lines = yaml.prefix(offset).split(separator: "\n", omittingEmptySubsequences: false)
            let column = (lines.last?.count ?? 0) + 1
            return ScenarioError(file: file, line: lines.count, column: column, message: "invalid YAML: \(problem)")
        default:
            return ScenarioError(file: file, message: "invalid YAML: \(yamlError)")
        }
    }

    /// Why a file could not be read, in a few words.
    struct FileReadFailure: Error {
        let reason: String
    }

    /// The most bytes a scenario, key or certificate file may have (real ones have a few KiB).
    static let maximumFileBytes = 16 * 1024 * 1024

    /// The UTF-8 text of a file: a regular file (not a device such as `/dev/zero`, which would never end, nor a
    /// pipe, which could block) of at most `maximumFileBytes`.
    static func readText(atPath path: String) throws(FileReadFailure) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileReadFailure(reason: "no such file") }
        let type = info.st_mode & S_IFMT
        guard type != S_IFDIR else { throw FileReadFailure(reason: "it is a folder, not a file") }
        guard type == S_IFREG else {
            throw FileReadFailure(reason: "it is not a regular file (a device, pipe or socket)")
        }
        guard info.st_size <= maximumFileBytes else {
            throw FileReadFailure(
                reason: "it is \(info.st_size) bytes, more than the \(maximumFileBytes) a scenario, key or "
                    + "certificate file may have")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileReadFailure(reason: "permission denied or unreadable")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FileReadFailure(reason: "not UTF-8 text")
        }
        return text
    }
}
