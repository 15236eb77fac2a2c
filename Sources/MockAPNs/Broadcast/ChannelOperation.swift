/// A channel management operation (shared/live-activities.md §3), as a record's `operation` names it.
public enum ChannelOperation: String, Sendable, Hashable, CaseIterable {
    /// `POST /1/apps/<bundle>/channels`: 201 and the new id in `apns-channel-id`.
    case create
    /// `GET /1/apps/<bundle>/channels` with `apns-channel-id`: 200 and the channel's settings.
    case read
    /// `DELETE /1/apps/<bundle>/channels` with `apns-channel-id`: 204; the id is never reused.
    case delete
    /// `GET /1/apps/<bundle>/all-channels`: 200 and the app's channel ids.
    case list
}
