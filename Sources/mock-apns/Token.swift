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

    @Option(name: .long, help: "The 10-character team id (the token's iss).")
    var team: String?

    @Option(name: .long, help: "The 10-character key id (the token's kid).")
    var keyID: String?

    @Option(name: .long, help: "The iat claim, in seconds since 1970. Default: now.")
    var issuedAt: Int64?

    @Flag(name: .long, help: "Sign with a DER signature (as Pushy does) instead of raw R||S.")
    var der = false

    func validate() throws {
        if p8 != nil, team == nil || keyID == nil {
            throw ValidationError("--p8 needs --team and --key-id")
        }
    }

    func run() throws {
        let pem: String
        if let p8 {
            do { pem = try String(contentsOfFile: p8, encoding: .utf8) } catch {
                throw CLIError("cannot read \(p8): \(error.localizedDescription)")
            }
        } else {
            pem = TestCredentials.signingKeyPEM
        }
        let key: ES256PrivateKey
        do { key = try ES256PrivateKey(pem: pem) } catch {
            throw CLIError("\(p8 ?? "the embedded key") is not a P-256 private key: \(error)")
        }
        print(
            ProviderTokenSigner.makeToken(
                teamID: team ?? TestCredentials.teamID, keyID: keyID ?? TestCredentials.keyID,
                issuedAt: issuedAt ?? Int64(Date().timeIntervalSince1970), key: key,
                encoding: der ? .der : .raw))
    }
}
