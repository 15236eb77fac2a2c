import Foundation

extension APNsValidator {
    /// "Whether APNs answers 410 for an ended activity's token, and when: open (two reports of 410 … some time
    /// after the end)" (live-activities.md §2; open): with `liveActivity.endedTokenUnregistered` on, a Live Activity
    /// push to the update token of an activity that ended at least that long ago gets 410 `Unregistered`, with the
    /// end plus the delay as its timestamp.
    ///
    /// Asked only for pushes to an update token the phone issued or to a declared `live-activity` token with an
    /// activity behind it; the registry's lock is taken only when the setting is on.
    func checkEndedActivityToken(_ context: Context) throws(Rejection) {
        guard let endedTokens, context.pushType == .liveactivity, let registry = issuedTokens,
            let activity = registry.activity(forToken: DeviceToken(validated: context.token))
        else { return }
        let end = activity.endDate(endedTokens.lifetimes)
        let since = end.addingTimeInterval(endedTokens.delay)
        guard since <= context.now else { return }
        throw Rejection(
            .unregistered, rule: "device.activity-ended",
            "the activity behind this update token ended at \(Timestamp.text(end)); APNs answers 410 from "
                + "\(ActivityDateWarning.spanText(endedTokens.delay)) after the end "
                + "(liveActivity.endedTokenUnregistered)",
            timestamp: since)
    }
}
