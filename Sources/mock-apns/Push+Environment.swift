import Foundation
import MockAPNs

/// What `mock-apns push` takes from the environment `mock-apns run` gives its COMMAND, when no flag says otherwise
/// (the credentials' in `APNsClientOptions`).
extension Push {
    /// The topic without `--topic`: `$MOCK_APNS_BUNDLE_ID`, else `com.example.app`.
    static var defaultTopicHere: String { APNsClientOptions.environment("MOCK_APNS_BUNDLE_ID") ?? defaultTopic }
}
