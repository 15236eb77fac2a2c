import Foundation
@testable import MockAPNs

/// A world with the test keys of `certs/`, a fixed time, and builders for requests and tokens.
struct ValidatorFixture {
    static let testKey = try! ES256PrivateKey(pem: AuthTestFiles.certificateFile("AuthKey_TESTKEY001.p8"))
    static let otherKey = try! ES256PrivateKey(pem: AuthTestFiles.certificateFile("AuthKey_OTHERKEY01.p8"))
    static let device = String(repeating: "0123456789abcdef", count: 4)
    static let bundleID = "com.example.app"

    var world: World
    var now = Date(timeIntervalSince1970: 1_800_000_000)

    init(configure: (inout World) -> Void = { _ in }) {
        world = World(
            environment: .sandbox,
            keys: [
                SigningKey(teamID: "TESTTEAM01", keyID: "TESTKEY001", publicKey: Self.testKey.publicKey),
                SigningKey(teamID: "OTHERTEAM1", keyID: "OTHERKEY01", publicKey: Self.otherKey.publicKey),
            ])
        configure(&world)
    }

    var nowSeconds: Int64 { Int64(now.timeIntervalSince1970) }

    /// A provider token by the test key, issued `age` seconds ago.
    func token(
        age: Int64 = 0, team: String = "TESTTEAM01", keyID: String = "TESTKEY001", key: ES256PrivateKey = testKey,
        encoding: ES256SignatureEncoding = .raw, issuedAtAsString: Bool = false
    ) -> String {
        ProviderTokenSigner.makeToken(
            teamID: team, keyID: keyID, issuedAt: nowSeconds - age, key: key, encoding: encoding,
            issuedAtAsString: issuedAtAsString)
    }

    /// An alert push that passes every check, with `changes` applied to its headers.
    func request(
        token: String? = nil, device: String = ValidatorFixture.device, method: String = "POST", path: String? = nil,
        headers changes: [String: String] = [:], removing: Set<String> = [], extraHeaders: [APNsHeader] = [],
        body: String = #"{"aps":{"alert":{"title":"Order ready","body":"Your food is on its way"}}}"#
    ) -> APNsRequest {
        var fields: [String: String] = [
            "apns-topic": ValidatorFixture.bundleID, "apns-push-type": "alert", "apns-priority": "10",
            "authorization": "bearer \(token ?? self.token())",
        ]
        for (name, value) in changes { fields[name] = value }
        for name in removing { fields[name] = nil }
        var headers = fields.map { APNsHeader($0.key, $0.value) }
        headers.sort { $0.name < $1.name }
        headers += extraHeaders
        return APNsRequest(
            method: method, path: path ?? "/3/device/\(device)", authority: "api.sandbox.push.apple.com",
            headers: headers, body: Array(body.utf8))
    }

    /// A token-based connection.
    static let tokenConnection = ConnectionInfo(id: 1, remoteAddress: "127.0.0.1:50000")

    /// A certificate-based connection presenting `certificate`.
    static func certificateConnection(_ file: String) -> ConnectionInfo {
        let certificate = try! APNsClientCertificate(pem: AuthTestFiles.certificateFile(file))
        return ConnectionInfo(id: 2, remoteAddress: "127.0.0.1:50001", clientCertificate: certificate)
    }

    /// Validates on a fresh connection state.
    func validate(_ request: APNsRequest, connection: ConnectionInfo = tokenConnection) -> Verdict {
        var auth = ProviderAuthState()
        return validate(request, connection: connection, auth: &auth)
    }

    /// Validates on a given connection state.
    func validate(
        _ request: APNsRequest, connection: ConnectionInfo = tokenConnection, auth: inout ProviderAuthState,
        at time: Date? = nil
    ) -> Verdict {
        APNsValidator(world: world).validate(request, connection: connection, auth: &auth, now: time ?? now)
    }
}
