/// What a broadcast or channel management answer carries beyond a device answer: its id goes out as
/// `apns-request-id` (not `apns-id`), and a created channel's id as `apns-channel-id` (shared/live-activities.md §3).
///
/// A class behind one optional reference on `APNsResponse`, so that a device answer pays one `nil` for it.
final class BroadcastAnswerHeaders: Sendable {
    /// The `apns-channel-id` header of a create's 201; `nil` for the other answers.
    let channelID: String?

    /// The headers of an answer with `channelID` (a create) or without.
    init(channelID: String? = nil) {
        self.channelID = channelID
    }

    /// The headers of every answer but a create's.
    static let plain = BroadcastAnswerHeaders()
}
