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

    /// The names accepted in scenario files and flags: `development` is Apple's name for the sandbox (the
    /// `aps-environment` entitlement of a development build).
    public static let names = ["sandbox", "development", "production"]

    /// Parses `sandbox` (or `development`) and `production`, exactly as written, lower case.
    ///
    /// Nothing else is taken, not even `prod`: a misspelt environment must be an error, not a silent guess.
    public init?(name: String) {
        switch name {
        case "sandbox", "development": self = .sandbox
        case "production": self = .production
        default: return nil
        }
    }
}
