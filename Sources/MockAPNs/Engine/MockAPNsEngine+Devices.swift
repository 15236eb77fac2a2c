import Foundation

/// The app's Live Activity types and the phone's settings, as the running scenario declares them.
struct ActivityConfig: Sendable {
    var types: [String: ActivitySchema] = [:]
    var settings = LiveActivitySettings()
    /// Where the app uploads each new update token; `nil`: nowhere.
    var tokenUpload: TokenUploadSettings?
}

extension MockAPNsEngine {
    /// Sets the app's Live Activity types the phone decodes pushes with and the phone's settings (a server start,
    /// a scenario load or a reset: `Scenario.activityTypes` and `Scenario.liveActivity`).
    ///
    /// Every connection rebuilds its validator before its next push, as after a world change: the validator
    /// applies `endedTokenUnregistered`.
    public func setActivityConfig(types: [String: ActivitySchema], settings: LiveActivitySettings) {
        activityConfig.withLockedValue {
            $0.types = types
            $0.settings = settings
        }
        updateWorld { _ in }
    }

    /// `liveActivity.endedTokenUnregistered` as the validators apply it; `nil` when it is off.
    var endedActivityTokens: EndedActivityTokens? {
        EndedActivityTokens(activityConfig.withLockedValue { $0.settings })
    }

    /// What the simulated phone does with `request`, a `liveactivity` push APNs accepted for `deviceToken` (the
    /// validator's, lower-cased: the world and the registry key tokens so, whatever case the path used): `nil`
    /// unless it went to a push-to-start device, a declared live-activity token with an `attributesType`, or an
    /// update token the registry issued.
    ///
    /// Only pushes APNs accepted reach the phone: those the APNs rules accepted, and a scripted 200 unless its rule
    /// says `phone: false`. The outcome comes with its activity history entry, which gets the record's sequence
    /// number once the journal gives it one.
    func deviceOutcome(
        of request: borrowing APNsRequest, to deviceToken: DeviceToken, world: World, now: Date
    ) -> (outcome: DeviceOutcome, entry: ActivityHistoryEntry?)? {
        let token = deviceToken.hex
        let target: ActivityTarget
        if let device = world.devices[token] {
            switch device.kind {
            case .pushToStart: target = .pushToStart(token: token, attributesType: device.attributesType)
            // A declared live-activity token has an activity behind it only with `attributesType` (the load started
            // it); without one the phone has nothing to decode with.
            case .liveActivity where device.attributesType != nil: target = .update(token: deviceToken)
            default: return nil
            }
        } else if activities.isUpdateToken(deviceToken) {
            target = .update(token: deviceToken)
        } else {
            return nil
        }
        guard let payload = try? JSONParser.parse(request.body) else { return nil }
        let priority = request.fields.priority.flatMap { Int($0) } ?? 10
        let config = activityConfig.withLockedValue { $0 }
        // The app of `input-push-channel`'s channel: the topic's, without its push-type suffix.
        let app = request.fields.topic.flatMap(APNsPushType.liveactivity.bundleID(fromTopic:))
        let located = activities.receiveLocated(
            payload, for: target, priority: priority, sequence: nil, now: now, types: config.types,
            settings: config.settings, isChannel: { self.isChannel($0, of: app, in: world.environment) })
        if let outcome = located?.outcome, outcome.kind == .started, let id = outcome.activityID,
            let channel = activities.activity(id: id)?.channel
        {
            catchUp(activityID: id, channelID: channel, now: now)
        }
        if let outcome = located?.outcome, outcome.kind == .started, let issued = outcome.updateToken,
            let id = outcome.activityID, var activity = activities.activity(id: id)
        {
            // The token the start issued, even if a rotation replaced it since: the app uploads each token once.
            activity.updateToken = issued
            tokenIssued(activity, event: .started)
        }
        return located
    }
}
