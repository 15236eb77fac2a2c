import Foundation

/// The fixed part of the simulated phone, as the running scenario declares it: the settings (`simulation:`) and
/// what each app's code does (the phone fields of `apps:`).
///
/// Kept in the `World`, which every connection holds a copy of, so that a push reads it without a lock; it changes
/// only with the scenario. What changes at run time (each phone's state, budgets, held pushes) is in
/// `PhoneRegistry`, out of the world. Stored behind one reference (copied on write), so that the world, which the
/// request path copies, grows by one word.
public struct PhoneSetup: Sendable {
    /// The two parts, shared between copies until one changes.
    private final class Storage: Sendable {
        let settings: SimulationSettings
        let apps: [String: AppBehaviour]
        let loadedAt: Date

        init(settings: SimulationSettings, apps: [String: AppBehaviour], loadedAt: Date) {
            self.settings = settings
            self.apps = apps
            self.loadedAt = loadedAt
        }
    }

    private var storage = Storage(settings: SimulationSettings(), apps: [:], loadedAt: Date())

    /// The defaults, no app declared.
    public init() {}

    /// The settings for what Apple leaves open.
    public var settings: SimulationSettings {
        get { storage.settings }
        set { storage = Storage(settings: newValue, apps: storage.apps, loadedAt: storage.loadedAt) }
    }

    /// What each app's code does, by bundle id; an app not listed declares nothing.
    public var apps: [String: AppBehaviour] {
        get { storage.apps }
        set { storage = Storage(settings: storage.settings, apps: newValue, loadedAt: storage.loadedAt) }
    }

    /// When the scenario was put in force (a load or a reset), on the mock's clock: an app's `lastOpened` until
    /// the person opens it (phone.md §2).
    public var loadedAt: Date {
        get { storage.loadedAt }
        set { storage = Storage(settings: storage.settings, apps: storage.apps, loadedAt: newValue) }
    }

    /// Whether the phone plays every push type (`simulation.enabled`): read on every push.
    var enabled: Bool { storage.settings.enabled }

    /// What `bundleID`'s code does, as declared.
    func app(_ bundleID: String) -> AppBehaviour {
        storage.apps[bundleID] ?? AppBehaviour()
    }
}
