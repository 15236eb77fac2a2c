import Foundation

/// A broadcast channel a scenario declares (`channels:`), so that a test starts with it: live from the start and
/// after every reset (shared/live-activities.md §3).
public struct ChannelDeclaration: Sendable, Hashable {
    /// The channel id: base64, as APNs issues them.
    public var id: String
    /// The app (bundle id) it belongs to.
    public var bundleID: String
    /// `message-storage-policy`: 0 (no message stored, the default) or 1 (the most recent).
    public var storagePolicy: BroadcastChannel.StoragePolicy
    /// The environment it belongs to; `nil` for the server's.
    public var environment: APNsEnvironment?

    /// A declaration from its parts.
    public init(
        id: String, bundleID: String, storagePolicy: BroadcastChannel.StoragePolicy = .noStorage,
        environment: APNsEnvironment? = nil
    ) {
        self.id = id
        self.bundleID = bundleID
        self.storagePolicy = storagePolicy
        self.environment = environment
    }

    /// The channel it declares, on a server of `environment`, live from `now`.
    func channel(serverEnvironment environment: APNsEnvironment, now: Date) -> BroadcastChannel {
        BroadcastChannel(
            id: id, bundleID: bundleID, environment: self.environment ?? environment, storagePolicy: storagePolicy,
            createdAt: now, declared: true)
    }
}

extension ChannelDeclaration {
    /// The declaration as a scenario file's `channels:` entry (JSON, which is YAML too).
    public var scenarioJSON: JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(id)), ("app", .string(bundleID)), ("storagePolicy", .number(String(storagePolicy.rawValue))),
        ]
        if let environment { members.append(("environment", .string(environment.rawValue))) }
        return .object(members)
    }
}
