import ArgumentParser
import Foundation
import MockAPNs

/// How a command that talks to APNs (or the mock) as a provider authenticates and what it trusts: `push`'s and
/// `channels`'s `--ca`, `--key`, `--key-id`, `--team-id`, `--cert` and `--cert-key`, in one place.
///
/// Under `mock-apns run`, `$MOCK_APNS_CA_FILE`, `$MOCK_APNS_KEY_FILE`, `$MOCK_APNS_KEY_ID` and `$MOCK_APNS_TEAM_ID`
/// stand in for the flags. With `--cert` the request carries no provider token: the TLS client certificate is the
/// authentication (certificate-based connections, apns-reference.md).
struct APNsClientOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "Trust only this CA file (PEM). Default: $MOCK_APNS_CA_FILE, else the system CAs and the test CA.")
    var ca: String?

    @Option(name: .long, help: "The .p8 signing key (PEM), with --key-id and --team-id. Default: the test key.")
    var key: String?

    @Option(name: .long, help: "The 10-character Key ID of --key. Default: TESTKEY001.")
    var keyID: String?

    @Option(name: .long, help: "The 10-character Team ID. Default: TESTTEAM01.")
    var teamID: String?

    @Option(
        name: .long,
        help: "Authenticate with this TLS client certificate (PEM) instead of a provider token; its key in --cert-key.")
    var cert: String?

    @Option(name: .long, help: "The private key (PEM) of --cert. Default: the key in the --cert file.")
    var certKey: String?

    func validate() throws {
        if key != nil, keyID == nil || teamID == nil { throw ValidationError("--key needs --key-id and --team-id") }
        if let teamID, let problem = Token.identifierProblem(teamID) {
            throw ValidationError("--team-id must be a 10-character Team ID (A-Z, 0-9), got '\(teamID)': \(problem)")
        }
        if let keyID, let problem = Token.identifierProblem(keyID) {
            throw ValidationError("--key-id must be a 10-character Key ID (A-Z, 0-9), got '\(keyID)': \(problem)")
        }
        if cert != nil, key != nil || keyID != nil || teamID != nil {
            throw ValidationError(
                "--cert authenticates with a certificate: give it or --key/--key-id/--team-id, not both")
        }
        if certKey != nil, cert == nil { throw ValidationError("--cert-key goes with --cert") }
    }

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

    /// The `authorization` header: a JWT signed with `--key` (or `$MOCK_APNS_KEY_FILE`) or the embedded test key
    /// (through `mock-apns token`'s code); none with `--cert`.
    func authorizationHeaders() throws -> [(String, String)] {
        guard cert == nil else { return [] }
        let key = try Token.signingKey(p8: keyFile)
        let token = ProviderTokenSigner.makeToken(
            teamID: signingTeamID, keyID: signingKeyID, issuedAt: Int64(Date().timeIntervalSince1970), key: key,
            encoding: .raw)
        return [("authorization", "bearer \(token)")]
    }
}
