import Foundation

/// The app's Live Activity types and the phone's settings, as the running scenario declares them.
struct ActivityConfig: Sendable {
    var types: [String: ActivitySchema] = [:]
    var settings = LiveActivitySettings()
    /// Where the app uploads each new update token; `nil`: nowhere.
    var tokenUpload: TokenUploadSettings?
}

extension MockAPNsEngine {
    /// Sets the app's Live Activity types the phone decodes pushes with (a scenario load or reset).
    public func setActivityTypes(_ types: [String: ActivitySchema]) {
        activityConfig.withLockedValue { $0.types = types }
    }

    /// What the simulated phone does with `request`, a `liveactivity` push APNs accepted: `nil` unless it went to
    /// a push-to-start device or an update token the registry issued.
    ///
    /// Only pushes the APNs rules accepted reach the phone; a scripted 200 stands in for APNs and reaches no
    /// device (its rule decides the test, not the phone).
    func deviceOutcome(of request: borrowing APNsRequest, world: World, now: Date) -> DeviceOutcome? {
        guard let token = request.deviceToken else { return nil }
        let target: ActivityTarget
        if let device = world.devices[token] {
            guard device.kind == .pushToStart else { return nil }
            target = .pushToStart(token: token, attributesType: device.attributesType)
        } else if activities.isUpdateToken(token) {
            target = .update(token: token)
        } else {
            return nil
        }
        guard let payload = try? JSONParser.parse(request.body) else { return nil }
        let priority = request.fields.priority.flatMap { Int($0) } ?? 10
        let config = activityConfig.withLockedValue { $0 }
        let outcome = activities.receive(
            payload, for: target, priority: priority, sequence: nil, now: now, types: config.types,
            settings: config.settings)
        if let outcome, outcome.kind == .started, outcome.updateToken != nil, let id = outcome.activityID,
            let activity = activities.activity(id: id)
        {
            tokenIssued(activity, event: .started)
        }
        return outcome
    }
}
