/// The person's notification settings for one app (phone.md §2, `settings`; doc, `UNNotificationSettings`):
/// each part of a notification is switched on or off on its own.
public struct NotificationSettings: Sendable, Hashable {
    /// Whether the Lock Screen shows the text of notifications (`showPreviews`).
    public enum Previews: String, Sendable, Hashable, CaseIterable {
        /// The text shows on the Lock Screen.
        case always
        /// Only once the phone is unlocked (Face ID).
        case whenAuthenticated
        /// Never: the app's name only.
        case never
    }

    /// Banners (`alerts`).
    public var alerts = true
    /// Sounds.
    public var sounds = true
    /// Badges on the app icon.
    public var badges = true
    /// The Lock Screen.
    public var lockScreen = true
    /// Notification Center.
    public var notificationCenter = true
    /// Critical alerts, for an app with the entitlement.
    public var criticalAlerts = true
    /// Time Sensitive notifications.
    public var timeSensitive = true
    /// Delivered in the Scheduled Summary.
    public var inSummary = false
    /// When the Lock Screen shows a notification's text.
    public var showPreviews = Previews.always

    /// Every part on, not in the summary, previews always: what an app the person allowed has.
    public init() {}

    /// The switches by name, in the order of phone.md §2 (`showPreviews` apart: it is not a switch).
    static let switchNames = [
        "alerts", "sounds", "badges", "lockScreen", "notificationCenter", "criticalAlerts", "timeSensitive",
        "inSummary",
    ]

    /// The switch named `name` (one of `switchNames`).
    subscript(switch name: String) -> Bool {
        get {
            switch name {
            case "alerts": alerts
            case "sounds": sounds
            case "badges": badges
            case "lockScreen": lockScreen
            case "notificationCenter": notificationCenter
            case "criticalAlerts": criticalAlerts
            case "timeSensitive": timeSensitive
            default: inSummary
            }
        }
        set {
            switch name {
            case "alerts": alerts = newValue
            case "sounds": sounds = newValue
            case "badges": badges = newValue
            case "lockScreen": lockScreen = newValue
            case "notificationCenter": notificationCenter = newValue
            case "criticalAlerts": criticalAlerts = newValue
            case "timeSensitive": timeSensitive = newValue
            default: inSummary = newValue
            }
        }
    }
}
