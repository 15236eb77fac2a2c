import Foundation

/// One app as one phone has it (phone.md §2, the app-on-phone fields): whether it is installed and running, what
/// the person allowed, and what the phone counts against it.
public struct AppOnPhone: Sendable, Hashable {
    /// Whether the app runs, and how it stopped (phone.md §2, `state`).
    public enum RunState: String, Sendable, Hashable, CaseIterable {
        /// On screen.
        case foreground
        /// Running or suspended in the background.
        case background
        /// Not launched since boot, or ended by the system.
        case notRunning
        /// Swiped away in the app switcher by the person.
        case forceQuit
    }

    /// What the person answered when the app asked to notify (doc, `UNAuthorizationStatus`).
    public enum Authorization: String, Sendable, Hashable, CaseIterable {
        /// Allowed.
        case authorized
        /// Refused, or turned off in Settings.
        case denied
        /// Never asked.
        case notDetermined
        /// Allowed to deliver quietly, to Notification Center, until the person decides.
        case provisional
        /// An App Clip's short-lived permission.
        case ephemeral
    }

    /// What the person allowed the app's location use (doc, `CLAuthorizationStatus`): a location push needs
    /// `always`.
    public enum LocationAuthorization: String, Sendable, Hashable, CaseIterable {
        /// Always, in the background too.
        case always
        /// Only while the app is in use.
        case whenInUse
        /// Never (denied, or not asked).
        case never
    }

    /// Whether the person is in the app's Push to Talk channel (doc, Creating a Push to Talk app).
    public enum PTTChannel: String, Sendable, Hashable, CaseIterable {
        /// In the channel: the PTT token works.
        case joined
        /// Left it: the token works only while someone is in the channel.
        case left
    }

    /// Whether the app is installed on the phone.
    public var installed = true
    /// Whether the app runs.
    public var state = RunState.background
    /// What the person allowed.
    public var authorization = Authorization.authorized
    /// The person's per-part settings.
    public var settings = NotificationSettings()
    /// Background App Refresh for the app.
    public var backgroundAppRefresh = true
    /// Xcode's debugger is attached: the background budget does not apply.
    public var debugger = false
    /// How many VoIP pushes the app failed to report as calls.
    public var voipFailures = 0
    /// The app's location authorization.
    public var locationAuthorization = LocationAuthorization.always
    /// The app's Push to Talk channel.
    public var pttChannel = PTTChannel.joined
    /// Whether the app's complication is on the paired watch's face.
    public var complicationOnFace = true
    /// When the person last opened the app, on the mock's clock; `nil`: when the scenario was loaded
    /// (`PhoneSetup.loadedAt`). `background-app-inactive` and an App Clip's 8 hours (`ephemeral-expired`) count
    /// from it.
    public var lastOpened: Date?

    /// An installed app in the background, authorized, every setting on: the default.
    public init() {}

    /// When the app was last opened, `loadedAt` (the scenario's load) unless the phone says otherwise.
    public func lastOpened(loadedAt: Date) -> Date { lastOpened ?? loadedAt }
}
