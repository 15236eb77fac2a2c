import COpenSSL

/// A P-256 private key that signs provider tokens, like the one in an Apple `.p8` file.
///
/// The mock itself only verifies; this signs tokens for tests, examples and the `mock-apns` tool. Owns one
/// OpenSSL `EVP_PKEY`, never changed after `init`; each `sign` makes its own `EVP_MD_CTX`, so one key can be
/// used from several threads at once, which makes the `@unchecked Sendable` sound.
public final class ES256PrivateKey: @unchecked Sendable {
    /// The `EVP_PKEY`, holding the private and public halves.
    private let key: OpaquePointer

    /// The public half, for checking this key's signatures.
    public let publicKey: ES256PublicKey

    /// Adopts an `EVP_PKEY` holding a P-256 private key; this object frees it.
    private init(adopting key: OpaquePointer) throws(ES256Error) {
        guard let publicOnly = ES256.publicOnlyCopy(of: key) else {
            EVP_PKEY_free(key)
            throw ES256Error("could not take the public key out of the private key")
        }
        self.key = key
        self.publicKey = ES256PublicKey(adopting: publicOnly)
    }

    /// Loads a key from PEM: PKCS#8 `PRIVATE KEY` (Apple's `.p8`) or SEC1 `EC PRIVATE KEY`.
    ///
    /// - Throws: `ES256Error` when the PEM holds no readable unencrypted private key, or the key is not an EC key
    ///   on P-256.
    public convenience init(pem: String) throws(ES256Error) {
        try self.init(adopting: ES256.readKey(pem: pem, public: false))
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Makes a fresh random P-256 key, as Apple does for a new `.p8`.
    public static func generate() -> ES256PrivateKey {
        ERR_clear_error()
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            preconditionFailure("OpenSSL has no EC key generator: \(OpenSSL.drainErrors())")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1,
            let key
        else {
            preconditionFailure("OpenSSL could not generate a P-256 key: \(OpenSSL.drainErrors())")
        }
        do {
            return try ES256PrivateKey(adopting: key)
        } catch {
            preconditionFailure("a freshly generated P-256 key was unusable: \(error)")
        }
    }

    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), the format of Apple's `.p8` files.
    public var pem: String {
        ERR_clear_error()
        let pem = OpenSSL.writeToMemoryBIO { bio in
            PEM_write_bio_PKCS8PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1
        }
        guard let pem else {
            preconditionFailure("OpenSSL could not write a P-256 private key as PEM: \(OpenSSL.drainErrors())")
        }
        return pem
    }

    /// Signs `message` with ECDSA P-256 and SHA-256.
    ///
    /// - Parameter encoding: `.raw` gives the 64-byte R‖S that JWS prescribes; `.der` gives what Pushy sends.
    public func sign(_ message: [UInt8], encoding: ES256SignatureEncoding = .raw) -> [UInt8] {
        guard let der = signDER(message) else {
            preconditionFailure("OpenSSL could not sign with a P-256 key: \(OpenSSL.drainErrors())")
        }
        switch encoding {
        case .der:
            return der
        case .raw:
            guard let raw = ES256.rawSignature(fromDER: der) else {
                preconditionFailure("OpenSSL made an ECDSA signature that does not fit P-256")
            }
            return raw
        }
    }

    /// The DER signature of `message`, or `nil` (with the reason on the error queue) if OpenSSL fails.
    private func signDER(_ message: [UInt8]) -> [UInt8]? {
        ERR_clear_error()
        guard let context = EVP_MD_CTX_new() else {
            return nil
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            return nil
        }
        var length = Int(EVP_PKEY_get_size(key))
        guard length > 0 else {
            return nil
        }
        var signature = [UInt8](repeating: 0, count: length)
        let result = signature.withUnsafeMutableBufferPointer { signature in
            message.withUnsafeBufferPointer { message in
                EVP_DigestSign(context, signature.baseAddress, &length, message.baseAddress, message.count)
            }
        }
        guard result == 1, length <= signature.count else {
            return nil
        }
        return Array(signature.prefix(length))
    }
}
