import Foundation

/// Broadcasts reaching the simulated phones (issue 24, live-activities.md §3): after the provider has its answer,
/// every activity subscribed to the channel takes the broadcast as an update to its own token, and a `fan-out`
/// record says what they did.
extension MockAPNsEngine {
    /// Fans `fanOut` out on the fan-out queue: its broadcast's record is numbered (the answer is on its way). Its
    /// place in `fanOutBacklog`, taken when its rules accepted it, is given back once its record is appended.
    func start(_ fanOut: BroadcastFanOut) {
        fanOutQueue.async {
            self.run(fanOut)
            self.fanOutBacklog.release()
        }
    }

    /// Hands the broadcast to every activity subscribed to its channel, judged at the broadcast's receive time, and
    /// appends the `fan-out` record: a broadcast that reached no activity gets one too (0 subscribers), so a wait
    /// for it always ends.
    private func run(_ fanOut: BroadcastFanOut) {
        let sequence = fanOut.number.sequence ?? 0
        var tally = FanOutTally(
            broadcast: fanOut.number.sequence, channel: fanOut.channel, at: fanOut.receivedAt, stored: false)
        if let payload = try? JSONParser.parse(fanOut.payload) {
            let config = activityConfig.withLockedValue { $0 }
            tally.count(
                activities.receiveBroadcast(
                    payload, channelID: fanOut.channel.id, priority: fanOut.priority, sequence: sequence,
                    now: fanOut.receivedAt, types: config.types, settings: config.settings))
        }
        journal.append(tally.record(receivedAt: clock.now()))
    }

    /// The activity `activityID` has just subscribed to the channel `channelID` at `now`: on a policy-1 channel
    /// it gets the stored message if that is still kept ("a subscriber that is offline gets the most recent message
    /// when it comes back, if within the expiration and 8 h", live-activities.md §3; doc), judged as a broadcast and
    /// recorded as a `fan-out` of one with `stored: true`.
    ///
    /// On the fan-out queue, after every broadcast recorded before it has fanned out. A stored message whose own
    /// fan-out has not run yet is skipped: that fan-out reaches the new subscriber itself.
    func catchUp(activityID: String, channelID: String, now: Date) {
        fanOutQueue.async {
            guard let entry = self.channels.entry(channelID), let stored = entry.numberedStored,
                let sequence = stored.sequence, stored.isKept(at: now),
                let payload = try? JSONParser.parse(stored.payload)
            else { return }
            let config = self.activityConfig.withLockedValue { $0 }
            let results = self.activities.receiveBroadcast(
                payload, channelID: channelID, only: activityID, priority: stored.priority, sequence: sequence,
                now: now, types: config.types, settings: config.settings)
            guard !results.isEmpty else { return }
            var tally = FanOutTally(broadcast: sequence, channel: entry.channel, at: now, stored: true)
            tally.count(results)
            self.journal.append(tally.record(receivedAt: self.clock.now()))
        }
    }

    /// Whether `id` is a live channel of `bundleID` in `environment`: what `input-push-channel`, a local start's
    /// `channel` and a declared device's `channel` must name.
    func isChannel(_ id: String, of bundleID: String?, in environment: APNsEnvironment) -> Bool {
        guard let channel = channels.entry(id)?.channel, channel.environment == environment else { return false }
        return bundleID.map { $0 == channel.bundleID } ?? true
    }
}
