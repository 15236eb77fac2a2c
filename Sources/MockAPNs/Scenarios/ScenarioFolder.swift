import Foundation

/// Finds the `scenarios/` folder that ships with mock-apns (next to `certs/`), wherever the binary runs from.
public enum ScenarioFolder {
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
}
