import NIOConcurrencyHelpers

/// What the control operations kept between calls, before the server kept it itself.
///
/// Kept one release for source compatibility: the server now holds the scenario loaded at run time (read it as
/// `MockAPNsServer.currentScenario`, change it with `loadScenario(yaml:)`), and `stats()` keeps its own counts.
@available(*, deprecated, message: "read MockAPNsServer.currentScenario; load a scenario with loadScenario(yaml:)")
public final class ControlState: Sendable {
    private let server: MockAPNsServer?
    private let detached = NIOLockedValueBox<Scenario?>(nil)

    /// A state of its own, tied to no server.
    public init() {
        server = nil
    }

    /// The state `server` keeps.
    init(server: MockAPNsServer) {
        self.server = server
    }

    /// The scenario loaded last at run time, if any.
    public var loadedScenario: Scenario? {
        guard let server else { return detached.withLockedValue { $0 } }
        return server.control.loadedScenario.withLockedValue { $0 }
    }

    /// Keeps `scenario` as the one a reset returns to.
    public func store(_ scenario: Scenario) {
        guard let server else { return detached.withLockedValue { $0 = scenario } }
        server.control.loadedScenario.withLockedValue { $0 = scenario }
    }
}

extension MockAPNsServer {
    /// The scenario loaded at run time, as the deprecated `ControlState` showed it.
    @available(*, deprecated, message: "read currentScenario; load a scenario with loadScenario(yaml:)")
    public var controlState: ControlState { ControlState(server: self) }
}
