import Foundation

/// A recorded push as one shell command that sends it again to this mock's APNs port with curl
/// (`GET /v1/requests/{seq}/curl`, the inspector's "copy as curl").
///
/// The same method, path, headers (in order) and payload bytes, over HTTP/2 with the CA the mock uses. Only the
/// provider token may differ: a token the mock can sign again (the embedded test key, or a key the world does not
/// hold, which is accepted unverified either way) is replaced by a fresh one, so that the command works after the
/// recorded token expired; a token APNs refused is kept, since a fresh one would change the answer; any other is a
/// variable the command asks for, with a comment line saying how to mint it. A client certificate is asked for the
/// same way. The headers curl adds by itself (`user-agent`, `accept`, `content-type`) are removed unless the
/// record has them; curl's `content-length` (unless the record has the payload's) and `:authority` (the mock's
/// address) stay.
public struct CurlCommand: Sendable {
    /// The command: comment lines (`# …`), then one curl command continued over lines.
    public let text: String

    /// The variable a command asks for when the mock cannot sign a provider token.
    public static let tokenVariable = "APNS_PROVIDER_TOKEN"
    /// The variable a command asks for when the mock names no CA file.
    public static let caVariable = "MOCK_APNS_CA"
    /// The variables a command asks for when the push came with a client certificate.
    public static let certificateVariables = (certificate: "APNS_CLIENT_CERT", key: "APNS_CLIENT_KEY")

    /// The answers that refuse a provider token: a record answered so keeps its token.
    static let tokenRefusals: Set<String> = [
        APNsReason.expiredProviderToken.name, APNsReason.invalidProviderToken.name,
        APNsReason.missingProviderToken.name, APNsReason.tooManyProviderTokenUpdates.name,
        APNsReason.unrelatedKeyIdInToken.name, APNsReason.badEnvironmentKeyInToken.name,
    ]

    /// The command for `record` (a device push) to `endpoint`, a fresh token signed at `now` (real time, as
    /// `mock-apns token` signs) when the `world`'s keys allow; `certificate` says the push came with one.
    public init(record: JournalRecord, endpoint: APNsEndpoint, world: World, certificate: Bool, now: Date = Date()) {
        var comments = ["# mock-apns: push #\(record.sequence) again, \(Self.answerText(record)), to \(endpoint.url)"]
        var words = ["curl --http2 --silent --show-error --include --globoff --path-as-is"]
        words.append("--cacert " + Self.caWord(endpoint, comments: &comments))

        // A content-length that is not the payload's (a cut payload) is left to curl, which states what it sends.
        let length = String(record.payload.count)
        for header in record.headers where header.name != "content-length" || header.value == length {
            let value =
                header.name == "authorization"
                ? Self.authorization(header.value, record: record, world: world, now: now, comments: &comments)
                : ShellWord.quoted(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
            words.append("-H " + value)
        }
        let present = Set(record.headers.map(\.name))
        let added = ["user-agent", "accept", "content-type"].filter { !present.contains($0) }
        if !added.isEmpty { words.append(added.map { "-H '\($0):'" }.joined(separator: " ")) }
        if certificate {
            let (certificateName, keyName) = Self.certificateVariables
            comments.append(
                "# \(certificateName), \(keyName): the push came with a client certificate; give its PEM files")
            words.append("--cert \"${\(certificateName):?set \(certificateName) to the client certificate file}\"")
            words.append("--key \"${\(keyName):?set \(keyName) to its private key file}\"")
        }
        if record.method != "POST" { words.append("-X " + ShellWord.quoted(record.method)) }

        let payload = record.payload
        if record.payloadTruncated {
            comments.append(
                "# the journal kept only the first \(payload.count) of the payload's \(record.payloadBytes) bytes: "
                    + "this sends those, so the answer may differ")
        }
        var pipe: String?
        if record.method == "POST" || !payload.isEmpty {
            if !payload.contains(0), let text = String(validating: payload, as: UTF8.self), !text.hasPrefix("@") {
                words.append("--data-binary " + (text.isEmpty ? "''" : ShellWord.quoted(text)))
            } else {
                // A NUL, bytes that are not UTF-8, or a leading @ (curl would read a file): printf makes the bytes.
                pipe = "printf " + ShellWord.printfFormat(payload) + " |"
                words.append("--data-binary @-")
            }
        }
        words.append(ShellWord.quoted(endpoint.url + record.path))
        let command = (pipe.map { [$0] } ?? []) + words
        text = (comments + [command.joined(separator: " \\\n  ")]).joined(separator: "\n") + "\n"
    }

    /// `status reason` of the record's answer, or what stood for one.
    private static func answerText(_ record: JournalRecord) -> String {
        guard let response = record.response else { return "recorded with no answer (\(record.fault ?? "none"))" }
        return "recorded as \(response.status)" + (record.reason.map { " \($0)" } ?? "")
    }

    /// The `--cacert` argument, with a comment when it is a variable.
    private static func caWord(_ endpoint: APNsEndpoint, comments: inout [String]) -> String {
        if let file = endpoint.caFile { return ShellWord.quoted(file) }
        comments.append(
            endpoint.embeddedCertificate
                ? "# \(caVariable): the mock uses its embedded test CA, not written to a file here: give certs/ca.pem "
                    + "of a mock-apns checkout (mock-apns serve writes the CA and prints where)"
                : "# \(caVariable): the CA of the certificate the mock serves was not given to it (--ca): give its "
                    + "file")
        return "\"${\(caVariable):?set \(caVariable) to the CA file}\""
    }

    /// The `-H` argument for the recorded `authorization` header: a fresh token, the recorded one, or a variable.
    private static func authorization(
        _ value: String, record: JournalRecord, world: World, now: Date, comments: inout [String]
    ) -> String {
        let recorded = ShellWord.quoted("authorization: \(value)")
        guard let jwt = APNsValidator.bearerToken(value), let token = try? ProviderToken.parse(jwt),
            let keyID = token.keyID, let teamID = token.issuer
        else {
            comments.append("# authorization: as recorded (not a provider token the mock can read)")
            return recorded
        }
        if let reason = record.reason, tokenRefusals.contains(reason) {
            comments.append(
                "# the provider token is the recorded one: APNs refused it (\(reason)), and a fresh one would change "
                    + "the answer")
            return recorded
        }
        let scheme = String(value[..<(value.range(of: jwt)?.lowerBound ?? value.startIndex)])
        if let signer = signingKey(keyID: keyID, world: world, verified: record.auth?.verified ?? true) {
            let fresh = ProviderTokenSigner.makeToken(
                teamID: teamID, keyID: keyID, issuedAt: Int64(now.timeIntervalSince1970), key: signer.key)
            let unverified =
                signer.unverified ? ", a key the world does not hold: accepted unverified, as the recorded one was" : ""
            comments.append(
                "# the provider token is a fresh one, signed now with the embedded test key as \(keyID) (team "
                    + "\(teamID))\(unverified); valid for an hour")
            return ShellWord.quoted("authorization: \(scheme)\(fresh)")
        }
        comments.append(
            "# \(tokenVariable): the mock does not hold the private key of key \(keyID) (team \(teamID)), so it "
                + "cannot sign a fresh provider token; mint one with")
        comments.append(
            "#   export \(tokenVariable)=$(mock-apns token --p8 AuthKey_\(keyID).p8 --team \(teamID) "
                + "--key-id \(keyID))")
        return "\"authorization: \(scheme)${\(tokenVariable):?set \(tokenVariable) to a provider token}\""
    }

    /// The key to sign a fresh token for `keyID` with: the embedded test key when the world's key `keyID` is its
    /// public half, or (`unverified`) when the world holds no key `keyID` and the recorded token was accepted
    /// unverified, which any signature then is too; `nil` otherwise.
    private static func signingKey(keyID: String, world: World, verified: Bool) -> (
        key: ES256PrivateKey, unverified: Bool
    )? {
        guard let key = try? ES256PrivateKey(pem: TestCredentials.signingKeyPEM) else { return nil }
        guard let known = world.keys[keyID] else {
            guard !verified, world.keyPolicy == .lenient else { return nil }
            return (key, true)
        }
        let probe = Array("mock-apns curl".utf8)
        guard known.publicKey.verify(signature: key.sign(probe), message: probe) != .invalid else { return nil }
        return (key, false)
    }
}
