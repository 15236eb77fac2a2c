extension Scenario {
    /// The scenario `mock-apns serve` runs with no file: sandbox, lenient, listening on 127.0.0.1:2197 with the
    /// embedded test certificate, and trusting the embedded test key (team TESTTEAM01, key TESTKEY001).
    ///
    /// `scenarios/default.yaml` describes the same world in a file.
    public static func embeddedDefault(port: Int = 2197) -> Scenario {
        var listen = ListenSettings()
        listen.port = port
        var keys: [SigningKey] = []
        if let publicKey = try? ES256PublicKey(pem: TestCredentials.signingKeyPEM) {
            keys.append(SigningKey(teamID: TestCredentials.teamID, keyID: TestCredentials.keyID, publicKey: publicKey))
        }
        return Scenario(name: "default", world: World(environment: .sandbox, keys: keys), listen: listen)
    }
}
