import Foundation

/// A channel management path, `/1/apps/<bundle>/channels` or `/1/apps/<bundle>/all-channels`, taken apart; also
/// the undocumented `/1/apps/<bundle>/channels/<id>` that APNSwift sends (shared/live-activities.md §3).
struct ChannelPath: Sendable, Hashable {
    /// What the path names under the app.
    enum Resource: Sendable, Hashable {
        /// `/channels`, with the channel id of `/channels/<id>` when the path carries one (percent-decoded).
        case channels(id: String?)
        /// `/all-channels`.
        case allChannels
    }

    /// The app's bundle id.
    var bundleID: String
    /// What the path names.
    var resource: Resource

    /// The parts of `path` (a query string is ignored); `nil` for any other path, which APNs answers 404 BadPath.
    init?(_ path: String) {
        let prefix = "/1/apps/"
        let withoutQuery = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard withoutQuery.hasPrefix(prefix) else { return nil }
        let segments = withoutQuery.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2, !segments[0].isEmpty else { return nil }
        bundleID = String(segments[0])
        switch (segments[1], segments.count) {
        case ("channels", 2):
            resource = .channels(id: nil)
        case ("channels", _):
            // A base64 id may hold '/': everything after `channels/` is the id.
            let raw = segments[2...].joined(separator: "/")
            guard !raw.isEmpty else { return nil }
            resource = .channels(id: raw.removingPercentEncoding ?? raw)
        case ("all-channels", 2):
            resource = .allChannels
        default:
            return nil
        }
    }
}
