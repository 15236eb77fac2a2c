/// Which APNs world a server, key, certificate or device belongs to.
///
/// The two environments are separate: a device token issued for one is `BadDeviceToken` in the other
/// (apns-reference.md §1, §9; doc).
public enum APNsEnvironment: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// `api.sandbox.push.apple.com`: development builds of an app.
    case sandbox
    /// `api.push.apple.com`: App Store, TestFlight and ad-hoc builds.
    case production

    /// The host name Apple serves this environment on.
    public var host: String {
        switch self {
        case .sandbox: "api.sandbox.push.apple.com"
        case .production: "api.push.apple.com"
        }
    }

    public var description: String { rawValue }

    /// Parses `sandbox`/`development` and `production`, as people write them in files and flags.
    public init?(name: String) {
        switch name.lowercased() {
        case "sandbox", "development", "dev": self = .sandbox
        case "production", "prod": self = .production
        default: return nil
        }
    }
}
