import Testing

@testable import MockAPNs

@Suite("ES256")
struct ES256Tests {
    private static let message = Array(#"eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJURVNUVEVBTTAxIn0"#.utf8)

    /// A SEC1 (`EC PRIVATE KEY`) P-256 key, as `openssl ecparam -genkey` writes it; made for these tests only.
    private static let sec1PEM = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIPE4rycwONoZo28zz+FSSnq07e852k4coVHl2wCWDOWYoAoGCCqGSM49
        AwEHoUQDQgAE0HytxmMXcEpzBD6yWg6Z/EKnv1IbIVhwslu2RGF95k18xJ++njm3
        AhGWkvo8jRmdV1KzX8PxN/RXsp1IqM539w==
        -----END EC PRIVATE KEY-----
        """

    /// The public half of `sec1PEM`.
    private static let sec1PublicPEM = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE0HytxmMXcEpzBD6yWg6Z/EKnv1Ib
        IVhwslu2RGF95k18xJ++njm3AhGWkvo8jRmdV1KzX8PxN/RXsp1IqM539w==
        -----END PUBLIC KEY-----

        """

    /// `sec1PEM` as encrypted PKCS#8 (pass phrase `secret`): must fail to load without prompting.
    private static let encryptedPEM = """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAjQDiF/vZ8TmAICCAAw
        DAYIKoZIhvcNAgkFADAdBglghkgBZQMEAQIEEIKV+9kmE/J7mrfBmslNTOwEgZBs
        ga2u9mhWu6X8P8RC7QQBdbnr4s2Gz5qi7YOBgDVga5F+4OnUtUeUDV1OJa2jm1nq
        40O2EelTPvAegV69rZjur97aNneqh3AhqEHwEWNi9PH5ftVwrpom5kkTLqj6mUEp
        XIs030oKR301tdRQrVqaFpHTsSFZxARIGf9auLrcLaVJWf9EEnpZe31oJrTLSMQ=
        -----END ENCRYPTED PRIVATE KEY-----
        """

    /// An EC key on P-384, the wrong curve for ES256.
    private static let p384PEM = """
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDAPm5lph9D8fbWuII09
        k0iALLyOkrk5F3hmVpJ/MWbtC9UybvDOZ3Ak+0DLY9bcA7ChZANiAARlEI042uZ+
        RxZzRMbhiF5RbMwHos+wN/s63Nzpi157qeKEIfopoBS7KQ+Nw3briewmfIu3or55
        sv4rGi/2QUrorDie77ZQ7l02zWkW9Q621N0wIUuFyW9/rhn3MALTq/Q=
        -----END PRIVATE KEY-----
        """

    /// An Ed25519 private key.
    private static let ed25519PEM = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEICr5RiG+uyQA3KswCfOBqhvEdZ/5BlOfE+mlzuAkdM3A
        -----END PRIVATE KEY-----
        """

    /// A 1024-bit RSA public key.
    private static let rsaPublicPEM = """
        -----BEGIN PUBLIC KEY-----
        MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDon5fl9HVq1BNA+U6jKvEicLfS
        XzpzDKO1vcmQeR+z0s4UNBD9+gijz5kEiT7+/Gpz8PKX3tjRfBlD6Fmj1qNDKb9N
        il5Lt7yrIXujo75rwXWqhOTi+5raCzouF6zwHnBlOG+9XFtnwpE6nzf1fSAeSmMG
        kEjNREspbAu/sVHR5wIDAQAB
        -----END PUBLIC KEY-----
        """

    /// The message of the error loading `pem` as a public key throws, or `nil` when it loads.
    private static func publicKeyError(_ pem: String) -> String? {
        do {
            _ = try ES256PublicKey(pem: pem)
            return nil
        } catch {
            return error.message
        }
    }

    /// The message of the error loading `pem` as a private key throws, or `nil` when it loads.
    private static func privateKeyError(_ pem: String) -> String? {
        do {
            _ = try ES256PrivateKey(pem: pem)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("a raw signature verifies as validRaw and a DER one as validDER")
    func bothEncodingsVerify() {
        let key = ES256PrivateKey.generate()
        let raw = key.sign(Self.message)
        let der = key.sign(Self.message, encoding: .der)
        #expect(raw.count == 64)
        #expect(der.first == 0x30 && (8...72).contains(der.count))
        #expect(key.publicKey.verify(signature: raw, message: Self.message) == .validRaw)
        #expect(key.publicKey.verify(signature: der, message: Self.message) == .validDER)
    }

    @Test("raw signatures are always 64 bytes, even when R or S has leading zero bytes")
    func rawPadding() {
        let key = ES256PrivateKey.generate()
        // About 1 in 128 signatures has a half below 2^248; 600 signatures make at least one very likely.
        for index in 0..<600 {
            let message = Array("message \(index)".utf8)
            let raw = key.sign(message)
            #expect(raw.count == 64)
            #expect(key.publicKey.verify(signature: raw, message: message) == .validRaw)
        }
    }

    @Test("a tampered message is invalid")
    func tamperedMessage() {
        let key = ES256PrivateKey.generate()
        var message = Self.message
        let raw = key.sign(message)
        let der = key.sign(message, encoding: .der)
        message[5] ^= 0x01
        #expect(key.publicKey.verify(signature: raw, message: message) == .invalid)
        #expect(key.publicKey.verify(signature: der, message: message) == .invalid)
        #expect(key.publicKey.verify(signature: raw, message: []) == .invalid)
    }

    @Test("a signature with any one bit flipped is invalid, raw or DER")
    func tamperedSignature() {
        let key = ES256PrivateKey.generate()
        for encoding in [ES256SignatureEncoding.raw, .der] {
            let signature = key.sign(Self.message, encoding: encoding)
            for index in signature.indices {
                var tampered = signature
                tampered[index] ^= 0x10
                #expect(key.publicKey.verify(signature: tampered, message: Self.message) == .invalid)
            }
        }
    }

    @Test("a signature by another key is invalid")
    func otherKey() {
        let key = ES256PrivateKey.generate()
        let other = ES256PrivateKey.generate()
        #expect(other.publicKey.verify(signature: key.sign(Self.message), message: Self.message) == .invalid)
        #expect(
            other.publicKey.verify(signature: key.sign(Self.message, encoding: .der), message: Self.message)
                == .invalid
        )
    }

    @Test(
        "random bytes of any length are invalid and never crash",
        arguments: [0, 1, 2, 8, 63, 64, 65, 70, 71, 72, 73, 200]
    )
    func garbage(length: Int) {
        let key = ES256PrivateKey.generate()
        for _ in 0..<200 {
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
            #expect(key.publicKey.verify(signature: bytes, message: Self.message) == .invalid)
            // The same bytes dressed as DER reach OpenSSL's parser instead of failing the first-byte check.
            if !bytes.isEmpty {
                bytes[0] = 0x30
                #expect(key.publicKey.verify(signature: bytes, message: Self.message) == .invalid)
            }
        }
    }

    @Test("a DER signature that is not canonical is invalid even though OpenSSL could read it")
    func nonCanonicalDER() {
        let key = ES256PrivateKey.generate()
        let der = key.sign(Self.message, encoding: .der)
        #expect(key.publicKey.verify(signature: der + [0x00], message: Self.message) == .invalid)
        // The same SEQUENCE with its length in the long form 0x81 <n>: valid BER, not DER.
        let longForm = [0x30, 0x81] + der[1...]
        #expect(key.publicKey.verify(signature: Array(longForm), message: Self.message) == .invalid)
        // Zero R and S, and R and S out of range.
        #expect(
            key.publicKey.verify(signature: [0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00], message: Self.message)
                == .invalid
        )
        #expect(key.publicKey.verify(signature: [UInt8](repeating: 0, count: 64), message: Self.message) == .invalid)
        #expect(key.publicKey.verify(signature: [UInt8](repeating: 0xFF, count: 64), message: Self.message) == .invalid)
    }

    @Test("a 64-byte signature that is canonical DER is also tried as DER, and is invalid when wrong")
    func sixtyFourByteDER() {
        // A valid 64-byte DER signature needs six leading zero bytes across R and S (odds about 2^-48), so none
        // can be made by signing; a well-formed one with wrong values still takes the DER path.
        let r: [UInt8] = [0x02, 29] + [0x11] + [UInt8](repeating: 0x42, count: 28)
        let s: [UInt8] = [0x02, 29] + [0x22] + [UInt8](repeating: 0x24, count: 28)
        let der: [UInt8] = [0x30, 62] + r + s
        #expect(der.count == 64)
        #expect(ES256.isCanonicalDER(der))
        let key = ES256PrivateKey.generate()
        #expect(key.publicKey.verify(signature: der, message: Self.message) == .invalid)
    }

    @Test("verifies from many threads at once with one key")
    func concurrentVerify() async {
        let key = ES256PrivateKey.generate()
        let raw = key.sign(Self.message)
        let der = key.sign(Self.message, encoding: .der)
        let publicKey = key.publicKey
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<50).allSatisfy { index in
                        let signature = (task + index).isMultiple(of: 2) ? raw : der
                        let expected: ES256SignatureValidity = (task + index).isMultiple(of: 2) ? .validRaw : .validDER
                        return publicKey.verify(signature: signature, message: Self.message) == expected
                            && publicKey.verify(signature: signature, message: [1, 2, 3]) == .invalid
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test("loads Apple-style .p8 keys from certs/ and verifies with the matching public key file")
    func p8FromCerts() throws {
        let key = try ES256PrivateKey(pem: try AuthTestFiles.certificateFile("AuthKey_TESTKEY001.p8"))
        let publicPEM = try AuthTestFiles.certificateFile("AuthKey_TESTKEY001.pub.pem")
        let publicKey = try ES256PublicKey(pem: publicPEM)
        #expect(key.publicKey.pem == publicPEM)
        #expect(publicKey.pem == publicPEM)
        let signature = key.sign(Self.message)
        #expect(publicKey.verify(signature: signature, message: Self.message) == .validRaw)

        let other = try ES256PublicKey(pem: try AuthTestFiles.certificateFile("AuthKey_OTHERKEY01.pub.pem"))
        #expect(other.verify(signature: signature, message: Self.message) == .invalid)
    }

    @Test("a public key made from a .p8 keeps only the public half and verifies its signatures")
    func publicKeyFromPrivatePEM() throws {
        let p8 = try AuthTestFiles.certificateFile("AuthKey_TESTKEY001.p8")
        let publicKey = try ES256PublicKey(pem: p8)
        #expect(publicKey.pem == (try AuthTestFiles.certificateFile("AuthKey_TESTKEY001.pub.pem")))
        let key = try ES256PrivateKey(pem: p8)
        #expect(publicKey.verify(signature: key.sign(Self.message, encoding: .der), message: Self.message) == .validDER)
    }

    @Test("loads a SEC1 EC PRIVATE KEY as a private key and as a public key")
    func sec1() throws {
        let key = try ES256PrivateKey(pem: Self.sec1PEM)
        #expect(key.publicKey.pem == Self.sec1PublicPEM)
        #expect(try ES256PublicKey(pem: Self.sec1PEM).pem == Self.sec1PublicPEM)
        #expect(key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
    }

    @Test("writes a private key as PKCS#8 PEM that loads back to the same key")
    func privatePEMRoundTrip() throws {
        let key = ES256PrivateKey.generate()
        let pem = key.pem
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try ES256PrivateKey(pem: pem)
        #expect(reloaded.publicKey.pem == key.publicKey.pem)
        #expect(key.publicKey.verify(signature: reloaded.sign(Self.message), message: Self.message) == .validRaw)
    }

    @Test("refuses keys that are not P-256 with a message naming the problem")
    func wrongKeyKinds() {
        #expect(Self.privateKeyError(Self.p384PEM)?.contains("secp384r1") == true)
        #expect(Self.publicKeyError(Self.p384PEM)?.contains("not P-256") == true)
        #expect(Self.privateKeyError(Self.ed25519PEM)?.contains("not an elliptic-curve key") == true)
        #expect(Self.publicKeyError(Self.rsaPublicPEM)?.contains("not an elliptic-curve key") == true)
    }

    @Test("refuses garbage, empty, truncated, encrypted and certificate PEMs without crashing or prompting")
    func garbagePEM() throws {
        let certificate = try AuthTestFiles.certificateFile("client-sandbox.pem")
        let truncated = String(Self.sec1PEM.dropLast(40))
        let inputs = [
            "", "hello", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", truncated,
            Self.encryptedPEM, certificate,
        ]
        for input in inputs {
            #expect(Self.privateKeyError(input)?.hasPrefix("no readable") == true)
            #expect(Self.publicKeyError(input)?.hasPrefix("no readable") == true)
        }
        #expect(Self.privateKeyError(Self.sec1PublicPEM)?.hasPrefix("no readable PRIVATE KEY") == true)
    }
}
