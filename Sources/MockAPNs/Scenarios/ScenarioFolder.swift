import Foundation

/// Finds the `scenarios/` folder that ships with mock-apns (next to `certs/`), wherever the binary runs from, and
/// the scenario a command line names in it.
public enum ScenarioFolder {
    /// The file extensions a scenario named without one is tried with, in this order.
    static let extensions = ["yaml", "yml"]

    /// The shipped scenarios folder: the first `scenarios/` holding `default.yaml` found, in this order, in the
    /// folders above the running executable (symbolic links resolved: `.build/debug/mock-apns` finds the
    /// checkout's), in `share/mock-apns/` beside them (an install under a prefix), then in the working directory.
    public static func project(
        executable: URL? = Bundle.main.executableURL,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> String? {
        var candidates: [URL] = []
        if var folder = executable?.resolvingSymlinksInPath().deletingLastPathComponent() {
            for _ in 0..<6 {
                candidates.append(folder.appendingPathComponent("scenarios"))
                candidates.append(folder.appendingPathComponent("share/mock-apns/scenarios"))
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        candidates.append(URL(fileURLWithPath: workingDirectory).appendingPathComponent("scenarios"))
        let found = candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("default.yaml").path)
        }
        return found?.standardizedFileURL.path
    }

    /// The file a command line's scenario argument names: `argument` itself when something is there; else the
    /// shipped scenario of its last path component (`taxi-ride`, `taxi-ride.yaml` and `scenarios/taxi-ride.yaml`
    /// all name `<shipped>/taxi-ride.yaml`), so that the names the docs use work outside the checkout.
    ///
    /// `serve --scenario`, `run`, `check` and `verify` all find their file here. When neither exists, the error says
    /// so and lists the shipped scenarios and their folder (or that none was found).
    ///
    /// - Parameter shippedFolder: the shipped scenarios (`project()`); `nil` when none was found.
    public static func locate(_ argument: String, shippedFolder: String? = project()) throws(ScenarioError) -> String {
        if FileManager.default.fileExists(atPath: argument) { return argument }
        let name = argument.isEmpty ? "" : URL(fileURLWithPath: argument).lastPathComponent
        if let shippedFolder, !name.isEmpty, let found = shippedFile(named: name, in: shippedFolder) {
            return found
        }
        throw ScenarioError(file: argument, message: notFoundMessage(name: name, shippedFolder: shippedFolder))
    }

    /// The shipped scenarios' names (`default`, `taxi-ride`, …), sorted; empty when the folder cannot be read.
    public static func names(in shippedFolder: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: shippedFolder)) ?? []
        return files.filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension) }
            .map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
            .sorted()
    }

    /// `<folder>/<name>`, or `<folder>/<name>.yaml` (`.yml`) for a name without either extension, when it is a file.
    private static func shippedFile(named name: String, in folder: String) -> String? {
        var candidates = [name]
        if !extensions.contains(URL(fileURLWithPath: name).pathExtension) {
            candidates += extensions.map { "\(name).\($0)" }
        }
        for candidate in candidates {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(candidate).path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                return path
            }
        }
        return nil
    }

    /// Why nothing was found: no such file, no shipped scenario of that name (with the closest), and the list.
    private static func notFoundMessage(name: String, shippedFolder: String?) -> String {
        let missing = "cannot read the scenario file: no such file"
        guard let shippedFolder else {
            return missing
                + ", and no shipped scenarios were found (an install has them in share/mock-apns/scenarios beside "
                + "bin/mock-apns; a checkout in scenarios/)"
        }
        let names = self.names(in: shippedFolder)
        let bare = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        let hint = NameSuggestion.hint(for: bare, among: names)
        let example = names.first { $0 != "default" } ?? names.first ?? "default"
        return missing + ", nor a shipped scenario named '\(bare)'\(hint). The shipped scenarios, in \(shippedFolder): "
            + names.joined(separator: ", ") + "; name one by itself (\(example)) or give the path of your own file"
    }
}
