/// What the broadcast rules made of one `POST /4/broadcasts/apps/<bundle>` (`BroadcastValidator`), for the answer
/// and the `broadcast` record.
struct BroadcastDecision: Sendable {
    /// The app of the path; `nil` when the path is not a broadcast path.
    var bundleID: String?
    /// The channel sent to, as `apns-channel-id` names it.
    var channelID: String?
    /// The channel, when it is one of the app's in this environment.
    var channel: BroadcastChannel?
    /// `apns-priority`, once checked.
    var priority: Int?
    /// `apns-expiration`, once checked.
    var expiration: Int64?
    /// The first rule that failed; `nil` when the broadcast is accepted.
    var rejection: Rejection?
    /// What the checks noticed.
    var notes: [String] = []
    /// Who the credential is.
    var auth: AuthSummary?
}
