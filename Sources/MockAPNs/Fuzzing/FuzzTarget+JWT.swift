extension FuzzTarget {
    /// The embedded test key (team TESTTEAM01, key TESTKEY001), which the default world trusts.
    static let testSigningKey: ES256PrivateKey = {
        guard let key = try? ES256PrivateKey(pem: TestCredentials.signingKeyPEM) else {
            preconditionFailure("the embedded test signing key does not load")
        }
        return key
    }()

    /// Another key, made once per process: nothing the test key signed may verify with it.
    static let otherSigningKey = ES256PrivateKey.generate()

    /// The input as a compact token, as a signature in every encoding, and (when it looks like one) as a PEM key.
    static func runJWT(_ input: [UInt8]) throws(FuzzFinding) {
        try checkSignatureEncodings(input)
        let text = String(decoding: input, as: UTF8.self)
        if text.contains("-----BEGIN") {
            // Scenario files name PEM key files: any text must load or fail cleanly.
            _ = try? ES256PublicKey(pem: text)
            _ = try? ES256PrivateKey(pem: text)
        }
        guard let token = try? ProviderToken.parse(text) else { return }
        let utf8 = Array(text.utf8)
        guard token.raw == text, utf8.starts(with: token.signingInput),
            token.signingInput.count < utf8.count, utf8[token.signingInput.count] == UInt8(ascii: ".")
        else {
            throw FuzzFinding(
                "the token's signing input is not the text before its last part: \(text.debugDescription)")
        }
        try checkSignatureEncodings(token.signature)
        // A fuzzed signature is checked without a trap; whatever it says, a real signature over the same input
        // must then verify, in both encodings, with the right key only.
        _ = testSigningKey.publicKey.verify(signature: token.signature, message: token.signingInput)
        let raw = testSigningKey.sign(token.signingInput, encoding: .raw)
        let der = testSigningKey.sign(token.signingInput, encoding: .der)
        let verdicts = (
            testSigningKey.publicKey.verify(signature: raw, message: token.signingInput),
            testSigningKey.publicKey.verify(signature: der, message: token.signingInput),
            otherSigningKey.publicKey.verify(signature: raw, message: token.signingInput),
            otherSigningKey.publicKey.verify(signature: der, message: token.signingInput)
        )
        guard verdicts.0 == .validRaw, verdicts.1 == .validDER || verdicts.1 == .validRaw,
            verdicts.2 == .invalid, verdicts.3 == .invalid
        else {
            throw FuzzFinding("signatures over \(text.debugDescription) verify as \(verdicts)")
        }
    }

    /// DER and raw R‖S conversions agree with each other on `bytes` taken as a signature.
    private static func checkSignatureEncodings(_ bytes: [UInt8]) throws(FuzzFinding) {
        if let der = ES256.derSignature(fromRaw: bytes) {
            guard ES256.isCanonicalDER(der), ES256.rawSignature(fromDER: der) == bytes else {
                throw FuzzFinding("raw signature \(bytes) does not survive DER and back (DER \(der))")
            }
        }
        if ES256.isCanonicalDER(bytes), let raw = ES256.rawSignature(fromDER: bytes) {
            guard ES256.derSignature(fromRaw: raw) == bytes else {
                throw FuzzFinding("canonical DER signature \(bytes) does not survive raw and back (raw \(raw))")
            }
        }
    }
}
