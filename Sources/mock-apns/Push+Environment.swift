import Foundation
import MockAPNs

/// What `mock-apns push` takes from the environment `mock-apns run` gives its COMMAND, when no flag says otherwise.
extension Push {
    /// `name`'s value in the environment, `nil` when unset or empty.
    static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The CA to trust alone: `--ca`, else `$MOCK_APNS_CA_FILE`; `nil` for the system CAs and the test CA.
    var caFile: String? { ca ?? Self.environment("MOCK_APNS_CA_FILE") }

    /// The `.p8` to sign with: `--key`, else `$MOCK_APNS_KEY_FILE`; `nil` for the embedded test key.
    var keyFile: String? { key ?? Self.environment("MOCK_APNS_KEY_FILE") }

    /// The token's `kid`: `--key-id`, else (unless `--key` is given) `$MOCK_APNS_KEY_ID`, else the test key's.
    var signingKeyID: String {
        keyID ?? (key == nil ? Self.environment("MOCK_APNS_KEY_ID") : nil) ?? TestCredentials.keyID
    }

    /// The token's `iss`: `--team-id`, else (unless `--key` is given) `$MOCK_APNS_TEAM_ID`, else the test team.
    var signingTeamID: String {
        teamID ?? (key == nil ? Self.environment("MOCK_APNS_TEAM_ID") : nil) ?? TestCredentials.teamID
    }

    /// The topic without `--topic`: `$MOCK_APNS_BUNDLE_ID`, else `com.example.app`.
    static var defaultTopicHere: String { environment("MOCK_APNS_BUNDLE_ID") ?? defaultTopic }
}
