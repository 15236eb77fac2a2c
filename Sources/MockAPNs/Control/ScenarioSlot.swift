import NIOConcurrencyHelpers

/// The scenario loaded at run time (`PUT /v1/scenario`), which a reset returns to; empty until one is loaded.
public final class ScenarioSlot: Sendable {
    private let box = NIOLockedValueBox<Scenario?>(nil)

    /// An empty slot: the server's starting scenario applies.
    public init() {}

    /// The scenario loaded last, if any.
    public var scenario: Scenario? { box.withLockedValue { $0 } }

    /// Keeps `scenario` as the one a reset returns to.
    public func store(_ scenario: Scenario) {
        box.withLockedValue { $0 = scenario }
    }
}
