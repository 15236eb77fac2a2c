import Foundation

/// What the phone does with a broadcast: each activity subscribed to the channel takes it as an update to its own
/// token (live-activities.md §3: "Each subscribed activity then applies the broadcast like an update").
extension ActivityRegistry {
    /// The ids of the activities subscribed to the channel `id`, in start order.
    public func subscriberIDs(of id: String) -> [String] {
        store.withLockedValue { $0.subscribers[id] ?? [] }
    }

    /// How many activities are subscribed to the channel `id`, and the ids of the first `limit` of them.
    public func subscribers(of id: String, limit: Int) -> (count: Int, ids: [String]) {
        store.withLockedValue { store in
            let ids = store.subscribers[id] ?? []
            return (ids.count, Array(ids.prefix(limit)))
        }
    }

    /// Hands `payload`, a broadcast APNs accepted for the channel `channelID` and recorded as `sequence`, to every
    /// activity subscribed to the channel (only `activityID` when given: a later subscriber getting the stored
    /// message), judged at `now` by the rules of an update to one token; each activity's history gets it with the
    /// broadcast's sequence and channel. Answers each activity's outcome, in start order.
    ///
    /// The subscribers are taken under the lock as they are now, then judged `chunk` at a time, one taking of the
    /// lock each: no lock per activity, and a Live Activity push on an event loop waits at most one chunk. An
    /// activity whose history already has `sequence` (it was subscribed when the fan-out ran) does not get it twice.
    func receiveBroadcast(
        _ payload: JSONValue, channelID: String, only activityID: String? = nil, priority: Int, sequence: UInt64,
        now: Date, types: [String: ActivitySchema], settings: LiveActivitySettings
    ) -> [DeviceOutcome] {
        let aps = payload["aps"] ?? .null
        let push = ActivityPushFacts(aps: aps, event: aps["event"]?.stringValue ?? "", now: now, settings: settings)
        let refusal = Self.broadcastRefusal(push)
        let ids = activityID.map { [$0] } ?? store.withLockedValue { $0.subscribers[channelID] ?? [] }
        var outcomes: [DeviceOutcome] = []
        outcomes.reserveCapacity(ids.count)
        var changed: [LiveActivity] = []
        for start in stride(from: 0, to: ids.count, by: Self.fanOutChunk) {
            store.withLockedValue { store in
                let historyLimit = Self.historyLimit(activities: store.activities.count)
                for id in ids[start..<min(start + Self.fanOutChunk, ids.count)]
                where store.activities[id]?.channel == channelID {
                    // In place, as `withActivity` does: a copy would copy the history for every activity.
                    if activityID != nil,
                        store.activities[id]!.history.contains(where: { $0.sequence == sequence })
                    {
                        continue
                    }
                    var outcome = refusal ?? push.apply(to: &store.activities[id]!, priority: priority, types: types)
                    outcome.activityID = id
                    _ = store.activities[id]!.record(
                        ActivityPush(
                            at: now, sequence: sequence, event: push.event, outcome: outcome.kind,
                            reason: outcome.reason, priority: priority, channel: channelID),
                        limit: historyLimit)
                    outcomes.append(outcome)
                    changed.append(store.activities[id]!)
                }
            }
        }
        for (activity, outcome) in zip(changed, outcomes) { notify(.pushed, activity, outcome: outcome.kind) }
        return outcomes
    }

    /// How many subscribers a fan-out judges per taking of the registry's lock.
    static let fanOutChunk = 256

    /// Why every subscriber drops a broadcast whatever its state: no known event or timestamp, a timestamp too far
    /// ahead, or a `start` ("a broadcast start (broadcast can only update or end; doc)", live-activities.md §2).
    private static func broadcastRefusal(_ push: ActivityPushFacts) -> DeviceOutcome? {
        if let refusal = push.commonRefusal() { return refusal }
        guard push.event != "start" else {
            return DeviceOutcome(
                .dropped, rule: .activityBroadcastStart,
                reason: "a broadcast only updates or ends activities; a start goes to a push-to-start token")
        }
        return nil
    }
}
