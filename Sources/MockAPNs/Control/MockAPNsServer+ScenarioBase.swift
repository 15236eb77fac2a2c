import Foundation

extension MockAPNsServer {
    /// The folder relative paths in a scenario loaded at run time (`PUT /v1/scenario`) start from.
    ///
    /// The folder of the scenario file the server started with; with none (the embedded defaults), the project's
    /// `scenarios/` folder (`ScenarioFolder.project()`); failing both, the server's working directory. Every
    /// shipped scenario names its keys as `../certs/...`, so either of the first two makes
    /// `curl -X PUT $C/v1/scenario --data-binary @scenarios/strict.yaml` load as `serve --scenario` would.
    public var scenarioBaseDirectory: String {
        if let sourcePath = scenario.sourcePath, !sourcePath.isEmpty {
            return URL(fileURLWithPath: sourcePath).deletingLastPathComponent().standardizedFileURL.path
        }
        return ScenarioFolder.project() ?? FileManager.default.currentDirectoryPath
    }

    /// Loads the scenario in `yaml` with relative paths resolved against `scenarioBaseDirectory`.
    public func loadScenario(yaml: String) async throws -> ScenarioSnapshot {
        try await loadScenario(yaml: yaml, baseDirectory: scenarioBaseDirectory)
    }

    /// Loads the scenario in `yaml`, relative paths in it resolved against `baseDirectory`.
    ///
    /// An invalid document throws `ScenarioError` and changes nothing. The listen settings and journal capacity
    /// stay those the server started with.
    public func loadScenario(yaml: String, baseDirectory: String) async throws -> ScenarioSnapshot {
        var loaded = try ScenarioLoader.parse(
            yaml: yaml,
            sourcePath: nil,
            baseDirectory: baseDirectory,
            now: engine.clock.now()
        )
        let running = currentScenario
        loaded.listen = running.listen
        loaded.journalCapacity = running.journalCapacity
        loaded.journalMaxBytes = running.journalMaxBytes
        loaded.limits = running.limits
        loadedScenario.withLockedValue { $0 = loaded }
        // Not `reset()`: the clock stays, so the document's times (a device's default `since`) read as loaded.
        restoreScenario()
        return try await scenario()
    }
}

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
