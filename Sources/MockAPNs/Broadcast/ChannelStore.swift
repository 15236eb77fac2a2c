import Foundation
import NIOConcurrencyHelpers

/// The broadcast channels of a server run: created through the channel management port or declared by the
/// scenario (`channels:`), and what was sent to them.
///
/// Engine-side and out of `World`, like `ActivityRegistry` and for the same reason: creating a channel must not
/// bump the world generation (which rebuilds every connection's caches). Touched only by channel operations and
/// broadcasts, never by a device push.
public final class ChannelStore: Sendable {
    /// Why a create failed.
    enum CreateFailure: Error {
        /// The app already has `limit` channels in this environment.
        case limitReached(limit: Int)
        /// The store holds `maxChannels` channels of all apps.
        case storeFull
    }

    /// The most channels the store holds in all (every app, both environments), so that creating channels for
    /// ever new bundle ids cannot make the server allocate without bound: each may keep a 5120-byte message.
    public static let maxChannels = 50_000
    /// The most deleted ids remembered; past it the oldest are forgotten (a new id is 16 random bytes, so one
    /// forgotten id coming back is a 2^-128 chance).
    static let maxRetired = 100_000

    private struct State {
        /// Live channels by id.
        var channels: [String: Entry] = [:]
        /// How many live channels each app has in each environment.
        var counts: [AppKey: Int] = [:]
        /// The ids deleted (or cleared by a reset) this run, up to `maxRetired`: never issued again.
        var retired: Set<String> = []
        /// `retired` in the order the ids were retired, to forget the oldest.
        var retiredOrder: [String] = []
        var random = SystemRandomNumberGenerator()

        /// Remembers `id` as never to be issued again, forgetting the oldest past `maxRetired`.
        mutating func retire(_ id: String) {
            guard retired.insert(id).inserted else { return }
            retiredOrder.append(id)
            if retiredOrder.count > ChannelStore.maxRetired {
                let forgotten = retiredOrder.count - ChannelStore.maxRetired / 2
                for old in retiredOrder.prefix(forgotten) { retired.remove(old) }
                retiredOrder.removeFirst(forgotten)
            }
        }
    }

    /// An app in one environment: what the per-app limit counts by.
    struct AppKey: Hashable, Sendable {
        var bundleID: String
        var environment: APNsEnvironment
    }

    /// A live channel and what was sent to it.
    struct Entry: Sendable {
        var channel: BroadcastChannel
        /// Broadcasts accepted for it.
        var messagesSent = 0
        /// The most recent broadcast, kept on a policy-1 channel.
        var stored: StoredBroadcast?
        /// The sequence number of `stored`'s record, once the journal gives it one.
        var storedNumber: PushNumber?
        /// When the hour of the broadcast budget began (its first broadcast), and how many it has taken since.
        var budgetHour: (start: Date, taken: Int)?

        /// `stored` with its record's sequence number, when it has one.
        var numberedStored: StoredBroadcast? {
            guard var stored else { return nil }
            stored.sequence = storedNumber?.sequence
            return stored
        }
    }

    private let state = NIOLockedValueBox(State())

    /// An empty store.
    public init() {}

    /// Creates a channel of `bundleID` in `environment` with a fresh id, unless the app already has `limit` there.
    func create(
        bundleID: String, environment: APNsEnvironment, storagePolicy: BroadcastChannel.StoragePolicy, limit: Int,
        now: Date
    ) -> Result<BroadcastChannel, CreateFailure> {
        state.withLockedValue { state in
            let key = AppKey(bundleID: bundleID, environment: environment)
            guard state.counts[key, default: 0] < limit else { return .failure(.limitReached(limit: limit)) }
            guard state.channels.count < Self.maxChannels else { return .failure(.storeFull) }
            var id: String
            repeat {
                var bytes = [UInt8](repeating: 0, count: Self.idBytes)
                for index in bytes.indices { bytes[index] = UInt8.random(in: .min ... .max, using: &state.random) }
                id = Data(bytes).base64EncodedString()
            } while state.channels[id] != nil || state.retired.contains(id)
            let channel = BroadcastChannel(
                id: id, bundleID: bundleID, environment: environment, storagePolicy: storagePolicy, createdAt: now)
            state.channels[id] = Entry(channel: channel)
            state.counts[key, default: 0] += 1
            return .success(channel)
        }
    }

    /// How many random bytes an issued id has (base64: 24 characters, as Apple's look).
    static let idBytes = 16

    /// The live channel `id` of `bundleID` in `environment`; `nil` when there is none (never created, deleted, or
    /// another app's or environment's).
    func channel(_ id: String, bundleID: String, environment: APNsEnvironment) -> BroadcastChannel? {
        state.withLockedValue { state in
            guard let entry = state.channels[id], entry.channel.bundleID == bundleID,
                entry.channel.environment == environment
            else { return nil }
            return entry.channel
        }
    }

    /// Deletes the channel `id` of `bundleID` in `environment` for good (its id is never issued again); `nil` when
    /// there is no such channel.
    func delete(_ id: String, bundleID: String, environment: APNsEnvironment) -> BroadcastChannel? {
        state.withLockedValue { state in
            guard let entry = state.channels[id], entry.channel.bundleID == bundleID,
                entry.channel.environment == environment
            else { return nil }
            state.channels[id] = nil
            state.counts[AppKey(bundleID: bundleID, environment: environment), default: 1] -= 1
            state.retire(id)
            return entry.channel
        }
    }

    /// The ids of `bundleID`'s live channels in `environment`, oldest first.
    func ids(bundleID: String, environment: APNsEnvironment) -> [String] {
        state.withLockedValue { state in
            state.channels.values.filter { $0.channel.bundleID == bundleID && $0.channel.environment == environment }
                .sorted { ($0.channel.createdAt, $0.channel.id) < ($1.channel.createdAt, $1.channel.id) }
                .map(\.channel.id)
        }
    }

    /// Takes one broadcast to the channel `id` from its budget of `limit` an hour, at `now`: `nil` when taken,
    /// else how many the hour already took (the broadcast is then refused, and not counted). The hour begins with
    /// its first broadcast; a clock set back before it begins a new one.
    func takeBroadcast(_ id: String, limit: Int, now: Date) -> Int? {
        state.withLockedValue { state in
            guard var entry = state.channels[id] else { return nil }
            var hour = entry.budgetHour ?? (now, 0)
            if now < hour.start || now >= hour.start.addingTimeInterval(3600) { hour = (now, 0) }
            guard hour.taken < limit else { return hour.taken }
            hour.taken += 1
            entry.budgetHour = hour
            state.channels[id] = entry
            return nil
        }
    }

    /// Counts an accepted broadcast to the channel `id`, and keeps it as the stored message of a policy-1 channel;
    /// `number` is its record's sequence number, once the journal gives it one.
    func noteBroadcast(_ message: StoredBroadcast, to id: String, number: PushNumber? = nil) {
        state.withLockedValue { state in
            guard var entry = state.channels[id] else { return }
            entry.messagesSent += 1
            if entry.channel.storagePolicy == .mostRecent {
                entry.stored = message
                entry.storedNumber = number
            }
            state.channels[id] = entry
        }
    }

    /// Every live channel with its broadcast count and stored message, oldest first.
    func all() -> [Entry] {
        state.withLockedValue { state in
            state.channels.values.sorted {
                ($0.channel.createdAt, $0.channel.id) < ($1.channel.createdAt, $1.channel.id)
            }
        }
    }

    /// The live channel `id` of any app and environment, with its broadcast count and stored message.
    func entry(_ id: String) -> Entry? {
        state.withLockedValue { $0.channels[id] }
    }

    /// Clears the channels the run created and restores `declared` (a reset, or the scenario applied): the cleared
    /// ids are retired, never issued again; a declared id is live again.
    func reset(declared: [BroadcastChannel]) {
        state.withLockedValue { state in
            for id in state.channels.keys { state.retire(id) }
            state.channels = [:]
            state.counts = [:]
            for channel in declared where state.channels[channel.id] == nil {
                state.retired.remove(channel.id)
                state.channels[channel.id] = Entry(channel: channel)
                state.counts[AppKey(bundleID: channel.bundleID, environment: channel.environment), default: 0] += 1
            }
        }
    }
}
