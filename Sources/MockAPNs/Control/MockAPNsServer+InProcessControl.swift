import Foundation

/// The server answers the control operations itself, through its `control`: `try await server.records(query)`.
extension MockAPNsServer: MockAPNsControlForwarding {
    /// The in-process control every operation is handed to.
    public var forwardedControl: InProcessControl { control }

    /// The scenario running now: the one loaded at run time, else the one the server started with.
    public var currentScenario: Scenario { control.currentScenario }

    /// The folder relative paths in a scenario loaded at run time start from (`InProcessControl`'s).
    public var scenarioBaseDirectory: String { control.scenarioBaseDirectory }

    /// Loads the scenario in `yaml`, relative paths in it resolved against `baseDirectory`.
    public func loadScenario(yaml: String, baseDirectory: String) async throws -> ScenarioSnapshot {
        try await control.loadScenario(yaml: yaml, baseDirectory: baseDirectory)
    }

    /// The running scenario's expectations and checks against the journal as it is now, `within:` counted from
    /// `startedAt` (`nil`: the server's start).
    public func verify(startedAt: Date? = nil) -> VerifyReport { control.verify(startedAt: startedAt) }
}
