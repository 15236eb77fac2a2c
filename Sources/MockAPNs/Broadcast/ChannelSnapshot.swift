import Foundation

/// A broadcast channel as the control API shows it (`GET /v1/channels`, `GET /v1/channels/{id}`): what it is,
/// how many broadcasts it took, and the message it keeps for later subscribers.
public struct ChannelSnapshot: Sendable, Hashable {
    /// The channel id.
    public var id: String
    /// The app (bundle id) it belongs to.
    public var app: String
    /// The environment it belongs to.
    public var environment: APNsEnvironment
    /// `message-storage-policy`: 0 or 1.
    public var storagePolicy: Int
    /// Whether the scenario declares it (`channels:`).
    public var declared: Bool
    /// When it was created, or (declared) when the scenario was applied.
    public var createdAt: Date
    /// The broadcasts it accepted.
    public var messagesSent: Int
    /// The most recent broadcast a policy-1 channel still hands to new subscribers; `nil` when there is none (or
    /// it is past its expiration or 8 hours).
    public var storedMessage: StoredBroadcast?
    /// How many activities on the simulated phones are subscribed to it (every broadcast reaches them).
    public var subscribers = 0
    /// The ids of the first `subscriberIDLimit` subscribed activities, in start order.
    public var subscriberIDs: [String] = []

    /// The most subscriber ids a snapshot lists (`subscribers` counts them all).
    public static let subscriberIDLimit = 100

    /// A snapshot from its parts.
    public init(
        id: String, app: String, environment: APNsEnvironment, storagePolicy: Int, declared: Bool, createdAt: Date,
        messagesSent: Int, storedMessage: StoredBroadcast?, subscribers: Int = 0, subscriberIDs: [String] = []
    ) {
        self.subscribers = subscribers
        self.subscriberIDs = subscriberIDs
        self.id = id
        self.app = app
        self.environment = environment
        self.storagePolicy = storagePolicy
        self.declared = declared
        self.createdAt = createdAt
        self.messagesSent = messagesSent
        self.storedMessage = storedMessage
    }

    /// The snapshot of a store entry at `now`, with the activities of `registry` subscribed to it.
    init(_ entry: ChannelStore.Entry, now: Date, registry: ActivityRegistry? = nil) {
        let channel = entry.channel
        let subscribed = registry?.subscribers(of: channel.id, limit: Self.subscriberIDLimit) ?? (count: 0, ids: [])
        self.init(
            id: channel.id, app: channel.bundleID, environment: channel.environment,
            storagePolicy: channel.storagePolicy.rawValue, declared: channel.declared, createdAt: channel.createdAt,
            messagesSent: entry.messagesSent,
            storedMessage: entry.numberedStored.flatMap { $0.isKept(at: now) ? $0 : nil },
            subscribers: subscribed.count, subscriberIDs: subscribed.ids)
    }
}

extension ChannelSnapshot: JSONMapped {
    /// `{"id", "app", "environment", "storagePolicy", "declared", "createdAt", "messagesSent", "storedMessage",
    /// "subscribers", "subscriberIDs"}`, every member written (`storedMessage` `null` when none). Read back `nil`
    /// without an `id`.
    public static let jsonMapping = JSONMapping<ChannelSnapshot, ChannelSnapshot>(
        ChannelSnapshot(
            id: "", app: "", environment: .sandbox, storagePolicy: 0, declared: false, createdAt: .distantPast,
            messagesSent: 0, storedMessage: nil),
        [
            .member("id", \.id, .string, required: true),
            .member("app", \.app, .string),
            .member("environment", \.environment, .rawValue),
            .member("storagePolicy", \.storagePolicy, .integer),
            .member("declared", \.declared, .bool),
            .member("createdAt", \.createdAt, .timestamp),
            .member("messagesSent", \.messagesSent, .integer),
            .member("storedMessage", \.storedMessage, .optional(.object)),
            .member("subscribers", \.subscribers, .integer),
            .member("subscriberIDs", \.subscriberIDs, .compactArray(.string)),
        ])
}

extension StoredBroadcast: JSONMapped {
    /// `{"payload", "receivedAt", "expiration", "priority", "sequence", "keptUntil"}` (`sequence`: the broadcast's
    /// record, `null`
    /// until it has one); `keptUntil` is written, not read.
    public static let jsonMapping = JSONMapping<StoredBroadcast, StoredBroadcast>(
        StoredBroadcast(payload: "", receivedAt: .distantPast, expiration: 0),
        [
            .member("payload", \.payload, .string, required: true),
            .member("receivedAt", \.receivedAt, .timestamp),
            .member("expiration", \.expiration, .integer),
            .member("priority", \.priority, .integer),
            .member("sequence", \.sequence, .optional(.integer)),
            .written("keptUntil") { .string(Timestamp.text($0.keptUntil)) },
        ])
}
