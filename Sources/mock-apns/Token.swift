import ArgumentParser
import Foundation
import MockAPNs

/// `mock-apns token`: mints a provider token (JWT) from a .p8 key, for curl and manual tests.
struct Token: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print an APNs provider token (ES256 JWT) signed with a .p8 key.",
        discussion: "With no options it signs with the embedded test key (team TESTTEAM01, key TESTKEY001).")

    @Option(name: .long, help: "The .p8 signing key (PEM). Default: the embedded test key.")
    var p8: String?

    @Option(name: .long, help: "The 10-character Team ID, A-Z and 0-9 (the token's iss). Default: TESTTEAM01.")
    var team: String?

    @Option(name: .long, help: "The 10-character Key ID, A-Z and 0-9 (the token's kid). Default: TESTKEY001.")
    var keyID: String?

    @Option(name: .long, help: "The iat claim, in seconds since 1970. Default: now.")
    var issuedAt: Int64?

    @Flag(name: .long, help: "Sign with a DER signature (as Pushy does) instead of raw R||S.")
    var der = false

    func validate() throws {
        if p8 != nil, team == nil || keyID == nil {
            throw ValidationError("--p8 needs --team and --key-id")
        }
        if let team, let problem = Self.identifierProblem(team) {
            throw ValidationError(
                "--team must be your 10-character Team ID (A-Z and 0-9, as in the Apple Developer account's "
                    + "Membership page), got '\(team)': \(problem)")
        }
        if let keyID, let problem = Self.identifierProblem(keyID) {
            throw ValidationError(
                "--key-id must be the 10-character Key ID of the .p8 (A-Z and 0-9, the ABC123DEFG in "
                    + "AuthKey_ABC123DEFG.p8), got '\(keyID)': \(problem)")
        }
    }

    /// What is wrong with a team or key id, or `nil`: Apple issues both as 10 characters of A-Z and 0-9.
    static func identifierProblem(_ text: String) -> String? {
        if text.count != 10 { return "it has \(text.count) character\(text.count == 1 ? "" : "s")" }
        if let bad = text.first(where: { !(("A"..."Z").contains($0) || ("0"..."9").contains($0)) }) {
            let hint = text.uppercased() == text ? "" : " (upper case only)"
            return "'\(bad)' is not A-Z or 0-9\(hint)"
        }
        return nil
    }

    /// The P-256 key in the .p8 file `p8`, or the embedded test key; a `CLIError` naming the file otherwise.
    static func signingKey(p8: String?) throws -> ES256PrivateKey {
        let pem: String
        if let p8 {
            do { pem = try String(contentsOfFile: p8, encoding: .utf8) } catch {
                throw CLIError("cannot read \(p8): \(error.localizedDescription)")
            }
        } else {
            pem = TestCredentials.signingKeyPEM
        }
        do { return try ES256PrivateKey(pem: pem) } catch {
            throw CLIError("\(p8 ?? "the embedded key") is not a P-256 private key: \(error)")
        }
    }

    func run() throws {
        let key = try Self.signingKey(p8: p8)
        print(
            ProviderTokenSigner.makeToken(
                teamID: team ?? TestCredentials.teamID, keyID: keyID ?? TestCredentials.keyID,
                issuedAt: issuedAt ?? Int64(Date().timeIntervalSince1970), key: key,
                encoding: der ? .der : .raw))
    }
}
