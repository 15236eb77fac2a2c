/// What the channel management rules made of one request (`ChannelValidator`): the operation, its result or the
/// rejection, and what was learned on the way, for the answer and the `channel` record.
struct ChannelDecision: Sendable {
    /// The operation the method and path name; `nil` when they name none (404, 405).
    var operation: ChannelOperation?
    /// The app of the path; `nil` when the path is not a channel path.
    var bundleID: String?
    /// The channel id of the request (header or path) or the one created.
    var channelID: String?
    /// The channel created, read or deleted.
    var channel: BroadcastChannel?
    /// The ids a list answers.
    var listed: [String]?
    /// Whether the request takes a form Apple does not document (APNSwift's); the record notes it either way.
    var form = Form.documented
    /// The first rule that failed; `nil` when the operation succeeded.
    var rejection: Rejection?
    /// What the checks noticed (an undocumented form, an unverified key).
    var notes: [String] = []
    /// Who the credential is.
    var auth: AuthSummary?

    /// How a request names what it wants, as a record's `form` writes it.
    enum Form: String, Sendable, Hashable {
        /// Apple's documented form: the channel id in `apns-channel-id`, the list at `all-channels`.
        case documented
        /// The channel id in the path, `/channels/<id>` (APNSwift, early 2026).
        case idInPath = "id-in-path"
        /// `GET /channels` with no channel id, taken as the list (APNSwift's list).
        case listAtChannels = "list-at-channels"
    }
}
