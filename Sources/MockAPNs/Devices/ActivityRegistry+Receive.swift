import Foundation

/// Where an accepted push went on the simulated phone.
public enum ActivityTarget: Sendable, Hashable {
    /// A push-to-start token, for the attributes type its device declares (`nil`: any declared type).
    case pushToStart(token: String, attributesType: String?)
    /// An activity's update token (one this registry issued), as the validator checked and lower-cased it.
    case update(token: DeviceToken)
}

extension ActivityRegistry {
    /// What the phone does with `payload`, a push APNs accepted for `target`, at `now`; the registry changes
    /// accordingly (live-activities.md §2). `nil` when `target` is an update token this registry did not issue.
    ///
    /// - Parameters:
    ///   - priority: `apns-priority` (10 when absent); only priority 10 counts against the update budget.
    ///   - types: the app's attributes types by name (`Scenario.activityTypes`).
    public func receive(
        _ payload: JSONValue, for target: ActivityTarget, priority: Int, sequence: UInt64?, now: Date,
        types: [String: ActivitySchema], settings: LiveActivitySettings = LiveActivitySettings()
    ) -> DeviceOutcome? {
        receiveLocated(
            payload, for: target, priority: priority, sequence: sequence, now: now, types: types, settings: settings
        )?.outcome
    }

    /// `receive`, and where the push went in its activity's history (`nil` when it reached no activity), for the
    /// sequence number the journal gives its record later (`number(_:)`).
    ///
    /// - Parameter isChannel: whether a `start`'s `input-push-channel` names a live channel of the push's app in its
    ///   environment (the engine asks its `ChannelStore`); none is known when not given.
    func receiveLocated(
        _ payload: JSONValue, for target: ActivityTarget, priority: Int, sequence: UInt64?, now: Date,
        types: [String: ActivitySchema], settings: LiveActivitySettings,
        isChannel: (String) -> Bool = { _ in false }
    ) -> (outcome: DeviceOutcome, entry: ActivityHistoryEntry?)? {
        let aps = payload["aps"] ?? .null
        let event = aps["event"]?.stringValue
        let push = ActivityPushFacts(aps: aps, event: event ?? "", now: now, settings: settings)
        switch target {
        case .pushToStart(let token, let deviceType):
            if let refusal = push.commonRefusal() { return (refusal, nil) }
            switch push.admitStart(types: types, deviceType: deviceType) {
            case .refused(let refusal): return (refusal, nil)
            case .admitted(let warnings):
                var channel: String?
                if let named = push.aps["input-push-channel"] {
                    // "input-push-channel: <id> subscribes it to a broadcast channel instead (unknown channel: it
                    // does not start)" (live-activities.md §2). doc
                    guard let id = named.stringValue, isChannel(id) else {
                        let reason =
                            "input-push-channel \(named.jsonText) is not a live channel of this app in this "
                            + "environment: nothing starts"
                        return (DeviceOutcome(.dropped, rule: .activityUnknownChannel, reason: reason), nil)
                    }
                    channel = id
                }
                let outcome = start(
                    push, token: token, channel: channel, warnings: warnings, sequence: sequence, now: now,
                    settings: settings)
                // A started activity's history is its start.
                return (outcome, outcome.activityID.map { ActivityHistoryEntry(activityID: $0, index: 0) })
            }
        case .update(let token):
            var changed: LiveActivity?
            let result = withActivity(forToken: token) { activity, historyLimit in
                var outcome = push.commonRefusal() ?? push.apply(to: &activity, priority: priority, types: types)
                if outcome.activityID == nil { outcome.activityID = activity.id }
                let index = activity.record(
                    ActivityPush(
                        at: now, sequence: sequence, event: push.event, outcome: outcome.kind, reason: outcome.reason,
                        priority: priority),
                    limit: historyLimit)
                changed = activity
                let entry = ActivityHistoryEntry(activityID: activity.id, index: index)
                return (outcome: outcome, entry: entry)
            }
            if let changed, let located = result { notify(.pushed, changed, outcome: located.outcome.kind) }
            return result
        }
    }

    /// Starts an activity for a `start` that passed every check, unless the token's start budget is spent; one
    /// with a `channel` (`input-push-channel`) is subscribed to it and gets no update token to upload.
    private func start(
        _ push: ActivityPushFacts, token: String, channel: String?, warnings: [String], sequence: UInt64?, now: Date,
        settings: LiveActivitySettings
    ) -> DeviceOutcome {
        var notes = [String]()
        let asked = push.aps["input-push-token"] == 1
        if let channel {
            notes.append("subscribed to channel \(channel) (input-push-channel): updates come by broadcast")
        } else if !asked {
            notes.append(
                settings.tokenWithoutInputPushToken
                    ? "start without input-push-token: 1; an update token was issued anyway"
                        + " (liveActivity.tokenWithoutInputPushToken)"
                    : "start without input-push-token: 1; no update token issued")
        }
        let type = push.aps["attributes-type"]?.stringValue ?? ""
        let attributes = push.aps["attributes"] ?? .null
        let contentState = push.aps["content-state"] ?? .null
        var activity = LiveActivity(
            id: "", attributesType: type, attributes: attributes, contentState: contentState, updateToken: "",
            pushToStartToken: token, startedAt: now, timestamp: push.timestamp ?? 0, staleDate: push.staleDate,
            relevanceScore: push.aps["relevance-score"]?.doubleValue)
        activity.startedByPush = true
        activity.channel = channel
        _ = activity.record(ActivityPush(at: now, sequence: sequence, event: "start", outcome: .started))
        let started: LiveActivity
        switch start(activity, budget: settings.startsPerWindow, window: settings.startWindow) {
        case .started(let activity): started = activity
        case .overBudget(let count):
            return DeviceOutcome(
                .throttled, rule: .activityStartBudget,
                reason: "push-to-start budget exceeded: \(count) starts within "
                    + "\(ActivityDateWarning.spanText(settings.startWindow)) (liveActivity.startsPerWindow)")
        }
        let issued = channel == nil && (asked || settings.tokenWithoutInputPushToken)
        return DeviceOutcome(
            .started, rule: .activityStarted, activityID: started.id, updateToken: issued ? started.updateToken : nil,
            warnings: warnings, notes: notes)
    }
}
