/// The fixed part of the simulated phone, as the running scenario declares it: the settings (`simulation:`) and
/// what each app's code does (the phone fields of `apps:`).
///
/// Kept in the `World`, which every connection holds a copy of, so that a push reads it without a lock; it changes
/// only with the scenario. What changes at run time (each phone's state, budgets, held pushes) is in
/// `PhoneRegistry`, out of the world.
public struct PhoneSetup: Sendable {
    /// The settings for what Apple leaves open.
    public var settings = SimulationSettings()
    /// What each app's code does, by bundle id; an app not listed declares nothing.
    public var apps: [String: AppBehaviour] = [:]

    /// The defaults, no app declared.
    public init() {}

    /// What `bundleID`'s code does, as declared.
    func app(_ bundleID: String) -> AppBehaviour {
        apps[bundleID] ?? AppBehaviour()
    }
}
