import NIOConcurrencyHelpers

/// What the control operations keep between calls: the scenario loaded at run time and the running counts.
public final class ControlState: Sendable {
    private let loaded = NIOLockedValueBox<Scenario?>(nil)
    /// Counts over the journal, brought up to date on each `stats()` call.
    let stats = JournalStatsCounter()

    /// Nothing loaded yet: the server's starting scenario applies.
    public init() {}

    /// The scenario loaded last at run time, if any.
    public var loadedScenario: Scenario? { loaded.withLockedValue { $0 } }

    /// Keeps `scenario` as the one a reset returns to.
    public func store(_ scenario: Scenario) {
        loaded.withLockedValue { $0 = scenario }
    }
}
