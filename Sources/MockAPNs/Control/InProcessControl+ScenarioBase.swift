import Foundation

extension InProcessControl {
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
