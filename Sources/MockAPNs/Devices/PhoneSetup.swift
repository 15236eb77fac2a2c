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
        /// `apps`, each behind one reference, as a walk holds it.
        let appCode: [String: AppCode]
        let loadedAt: Date

        init(settings: SimulationSettings, apps: [String: AppBehaviour], loadedAt: Date) {
            self.settings = settings
            self.apps = apps
            self.appCode = apps.mapValues(AppCode.init)
            self.loadedAt = loadedAt
        }
    }

    /// What an app's code does, behind one reference: what `PhoneWalk` holds. Made once per scenario; as a value
    /// of about fifteen references it was copied into every walk (bench/README.md, "ninth session").
    final class AppCode: Sendable {
        let behaviour: AppBehaviour

        init(_ behaviour: AppBehaviour) {
            self.behaviour = behaviour
        }

        /// An app the scenario does not declare.
        static let undeclared = AppCode(AppBehaviour())
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
        appCode(bundleID).behaviour
    }

    /// What `bundleID`'s code does, as a walk holds it.
    func appCode(_ bundleID: String) -> AppCode {
        storage.appCode.isEmpty ? .undeclared : storage.appCode[bundleID] ?? .undeclared
    }
}
