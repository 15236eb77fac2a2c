/// Why the simulated phone has a new update token for an activity. The real app uploads each new token to the
/// provider's own server (live-activities.md §2, "Tokens"); `tokenUpload:` in a scenario does that for the mock.
public enum ActivityTokenEvent: String, Sendable, Hashable, CaseIterable {
    /// An activity started (a `start` push, or a local start as the app itself would) and got its token.
    case started
    /// A running activity's token rotated (`POST /v1/activities/{id}/rotate-token`).
    case rotated
}

extension MockAPNsEngine {
    /// Sets where the app uploads each new update token (a scenario load or reset); `nil` stops new uploads.
    public func setTokenUpload(_ settings: TokenUploadSettings?) {
        activityConfig.withLockedValue { $0.tokenUpload = settings }
    }

    /// The one place every newly issued update token passes through: a push-to-start `start`, a local start, a
    /// rotation. With `tokenUpload:` in the running scenario, the app's upload of it is queued (never awaited:
    /// this runs on the request path).
    func tokenIssued(_ activity: LiveActivity, event: ActivityTokenEvent) {
        guard let settings = activityConfig.withLockedValue({ $0.tokenUpload }) else { return }
        tokenUploads.enqueue(activity, event: event, settings: settings)
    }
}
