import Foundation

extension ActivityRegistry {
    /// Starts an activity behind each `live-activity` device among `devices` that names its `attributesType`: an
    /// activity the app already has when the run starts, so that updates and ends to the token get a device
    /// outcome like those to a token the phone issued during the run. Returns the activities started, in token
    /// order.
    ///
    /// What the mock knows of such an activity is only its type: it starts at `now` (the mock's clock at the load),
    /// with `timestamp` 0 (any update is newer), no content state and no attributes (`null`, as if never sent),
    /// and no push-to-start token; with a `channel` it is subscribed to it. Its lifetime counts from `now`. A
    /// device without `attributesType` gets no
    /// activity: the phone has nothing to decode its pushes with, so they get no device part.
    @discardableResult
    public func startDeclared(_ devices: some Sequence<Device>, now: Date) -> [LiveActivity] {
        let declared = devices.filter { $0.kind == .liveActivity && $0.attributesType != nil }
        return declared.sorted { $0.token < $1.token }.map { device in
            var activity = LiveActivity(
                id: "", attributesType: device.attributesType ?? "", attributes: .null, contentState: .null,
                updateToken: device.token, pushToStartToken: nil, startedAt: now, timestamp: 0)
            activity.channel = device.channel
            return start(activity, token: DeviceToken(validated: device.token))
        }
    }
}
