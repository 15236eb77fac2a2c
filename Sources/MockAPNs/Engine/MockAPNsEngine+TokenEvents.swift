/// Why the simulated phone has a new update token for an activity. The real app uploads each new token to the
/// provider's own server (live-activities.md §2, "Tokens"); `tokenUpload:` in a scenario does that for the mock.
public enum ActivityTokenEvent: String, Sendable, Hashable, CaseIterable {
    /// An activity started (a `start` push, or a local start as the app itself would) and got its token.
    case started
    /// A running activity's token rotated (`POST /v1/activities/{id}/rotate-token`).
    case rotated
}

extension MockAPNsEngine {
    /// The one place every newly issued update token passes through: a push-to-start `start`, a local start, a
    /// rotation. The token upload (issue 12, `tokenUpload:`) hangs here; until a scenario configures one, the
    /// token is only in the registry and the record's device part.
    func tokenIssued(_ activity: LiveActivity, event: ActivityTokenEvent) {
        _ = (activity, event)
    }
}
