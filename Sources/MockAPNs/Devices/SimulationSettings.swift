import Foundation

/// The phone's settings for what Apple leaves open (phone.md §6), as a scenario's `simulation:` section gives them.
/// Each default is the reading the sources support best; the other branch is a setting, never a silent drop.
public struct SimulationSettings: Sendable, Hashable {
    /// Whether the phone plays every push type; `false` keeps it to Live Activities, as before issue 23 (for
    /// benchmarks and for suites that check only APNs's answers).
    public var enabled = true
    /// What a background push to an app whose notifications the person denied does.
    public enum WhenDenied: String, Sendable, Hashable, CaseIterable {
        /// Delivered and launched as ever (the `Metrics` page's "Discarded – Disabled" names alerts).
        case deliver
        /// Discarded by APNs as an alert would be.
        case discard
    }
    /// `backgroundWhenDenied` (open: havesource/cordova-plugin-push#335 against *Metrics*).
    public var backgroundWhenDenied = WhenDenied.deliver
    /// How many background launches a phone allows per `backgroundBudgetWindow`, all apps; `nil`: no limit (the
    /// warning `background-over-rate` past 3 an hour).
    public var backgroundBudget: Int?
    /// The window `backgroundBudget` counts in, in seconds.
    public var backgroundBudgetWindow: TimeInterval = 3600
    /// Whether priority-5 alerts that launch the app (`content-available: 1`) count against the budget too.
    public var backgroundBudgetCountsAlerts = false
    /// When a background push held for a spent budget is released, beside the app being opened.
    public enum HeldRelease: String, Sendable, Hashable, CaseIterable {
        /// As soon as the budget window has room again (the clock passes it), or the app is opened.
        case nextWindow
        /// Only when the person opens the app (doc, *Background updates*).
        case onOpen
    }
    /// `heldRelease` (open: *Background updates* against forums/776933).
    public var heldRelease = HeldRelease.nextWindow
    /// Whether APNs stores low-priority pushes while the phone is in Low Power Mode.
    public enum PowerStorage: String, Sendable, Hashable, CaseIterable {
        /// Never: the phone gets the push now (and holds a background push itself).
        case off
        /// Priority 5 and 1 pushes are `stored` (`stored-power`) until Low Power Mode ends.
        case lowPriority
    }
    /// `powerStorage` (doc, *Metrics*: "Stored – Power Considerations"; open: when a real phone asks for it).
    public var powerStorage = PowerStorage.off
    /// What a background push at priority 10 does, beyond its warning.
    public enum PriorityTen: String, Sendable, Hashable, CaseIterable {
        /// Launches the app (seen, forums/745345).
        case launch
        /// Does not launch it.
        case notLaunched
    }
    /// `backgroundPriorityTen`.
    public var backgroundPriorityTen = PriorityTen.launch
    /// How long after the person last opened an app (`lastOpened`) background pushes stop launching it
    /// (`background-app-inactive`), in seconds; `nil`: never (open: forums/776933 says iOS weighs how recently an app
    /// was used, and names no number).
    public var inactiveAppAfter: TimeInterval?
    /// After how many unreported VoIP pushes iOS stops launching the app; `nil`: never (a warning from the 2nd).
    public var voipSuspendAfter: Int?
    /// When a VoIP push must be reported as a call.
    public enum MustReport: String, Sendable, Hashable, CaseIterable {
        /// Not in the foreground or during a call (seen, DTS forums/817976).
        case ios26
        /// Always, the strict reading of the iOS 13 documentation.
        case always
    }
    /// `voipMustReport`.
    public var voipMustReport = MustReport.ios26
    /// What a critical or Time Sensitive alert from an app without the entitlement does.
    public enum WithoutEntitlement: String, Sendable, Hashable, CaseIterable {
        /// Shown as an ordinary (active) alert, with a warning.
        case downgrade
        /// Shown at the level it asks for.
        case honour
    }
    /// `criticalWithoutEntitlement` (open).
    public var criticalWithoutEntitlement = WithoutEntitlement.downgrade
    /// `timeSensitiveWithoutEntitlement` (open).
    public var timeSensitiveWithoutEntitlement = WithoutEntitlement.downgrade
    /// The memory a service extension may use, in bytes (24 MiB from iOS 17).
    public var serviceExtensionMemoryLimit = 24 * 1024 * 1024
    /// Whether the service extension runs for a provisionally authorized app.
    public enum WhenProvisional: String, Sendable, Hashable, CaseIterable {
        /// It runs.
        case run
        /// It does not.
        case skip
    }
    /// `serviceExtensionWhenProvisional` (open).
    public var serviceExtensionWhenProvisional = WhenProvisional.run

    /// Which push a storage slot keeps when a second one arrives for an offline phone.
    public enum StorageKeeps: String, Sendable, Hashable, CaseIterable {
        /// The newer push; the stored one is `replaced` ("most of the time", *Metrics*).
        case newest
        /// The first stored push; the newer one is `replaced` (seen, itecnotes.com).
        case oldest
    }
    /// `storageKeeps` (open).
    public var storageKeeps = StorageKeeps.newest
    /// What one stored push is kept per.
    public enum StorageSlot: String, Sendable, Hashable, CaseIterable {
        /// One per device token and bundle id (doc, *Metrics*).
        case token
        /// One per app per phone, across its tokens (*Sending*: "one notification per bundle ID").
        case app
    }
    /// `storageSlot`.
    public var storageSlot = StorageSlot.token
    /// How long a push without `apns-expiration` stays in storage, in seconds (the 30-day cap).
    public var storageWithoutExpiration: TimeInterval = 30 * 86_400
    /// How long after an `apns-expiration: 0` push a phone back online still gets it, in seconds; 0: now or never.
    public var expirationZeroGrace: TimeInterval = 30
    /// How long after the first push that reaches a phone without the app its token answers 410, in seconds;
    /// `nil`: never (200 for good).
    public var unregisteredAfter: TimeInterval? = 72 * 3600
    /// How many notifications `GET /v1/phones/{id}` lists per app, the newest; older ones are counted
    /// (`notificationCount`) but not listed, so a phone with a long history answers in bounded time and memory.
    public var notificationCenterLimit = 1_000

    /// What a Push to Talk push to a force-quit app does.
    public enum AfterForceQuit: String, Sendable, Hashable, CaseIterable {
        /// The system launches the app and asks for its `incomingPushResult` (forums/781909).
        case launch
        /// The push is dropped (forums/780822).
        case drop
    }
    /// `pttAfterForceQuit` (open: forums/781909 against /780822).
    public var pttAfterForceQuit = AfterForceQuit.launch
    /// How many complication pushes an app gets per rolling 24 hours; `nil`: no limit (doc,
    /// `PKPushType.complication`: 50 a day).
    public var complicationPerDay: Int? = 50
    /// How many widget and control pushes an app gets per rolling 24 hours; `nil`: no limit (Apple budgets them
    /// and names no number).
    public var widgetPushesPerDay: Int?

    /// The defaults of phone.md §6.
    public init() {}

    /// The window the complication and widget budgets count in: a day, rolling.
    static let dailyBudgetWindow: TimeInterval = 86_400

    /// Whether APNs stores a push of `priority` while the phone is in Low Power Mode (phone.md §1 step 5): under
    /// `powerStorage: lowPriority`, priority 5 and 1; never a push with `apns-expiration: 0` (now or never: APNs
    /// does not store it).
    func storesForPower(priority: Int, zeroExpiration: Bool) -> Bool {
        powerStorage == .lowPriority && (priority == 5 || priority == 1) && !zeroExpiration
    }

    /// The longest APNs stores a push for an offline phone, whatever its `apns-expiration` says: 30 days.
    static let storageCap: TimeInterval = 30 * 86_400

    /// The background pushes to one phone within an hour past which `background-over-rate` warns (doc,
    /// *Background updates*: "two or three per hour").
    static let overRateCount = 3
}
