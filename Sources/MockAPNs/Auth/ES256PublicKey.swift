import COpenSSL

/// A P-256 public key that checks APNs provider-token signatures (ES256: ECDSA on P-256 with SHA-256).
///
/// Owns one OpenSSL `EVP_PKEY`, which is never changed after `init`; each `verify` makes its own
/// `EVP_MD_CTX`, so one key can be used from any number of threads at once (OpenSSL 3 allows concurrent use of
/// an `EVP_PKEY` that nobody modifies). That is what makes the `@unchecked Sendable` sound.
public final class ES256PublicKey: @unchecked Sendable {
    /// The `EVP_PKEY`, holding the public half only.
    private let key: OpaquePointer

    /// Adopts an `EVP_PKEY` that holds only a public key on P-256; this object frees it.
    init(adopting key: OpaquePointer) {
        self.key = key
    }

    /// Loads a key from PEM: a `PUBLIC KEY` block, or a private key (`PRIVATE KEY` as in Apple's `.p8`, or
    /// `EC PRIVATE KEY`) whose public half is kept and private half dropped.
    ///
    /// - Throws: `ES256Error` when the PEM holds no readable key, or the key is not an EC key on P-256.
    public init(pem: String) throws(ES256Error) {
        let isPublic = pem.contains("-----BEGIN PUBLIC KEY-----")
        let loaded = try ES256.readKey(pem: pem, public: isPublic)
        if isPublic {
            self.key = loaded
            return
        }
        defer { EVP_PKEY_free(loaded) }
        guard let publicOnly = ES256.publicOnlyCopy(of: loaded) else {
            throw ES256Error("could not take the public key out of the private key")
        }
        self.key = publicOnly
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Checks `signature` over `message`, as raw R‖S when it is 64 bytes long and as DER otherwise.
    ///
    /// A DER signature must be canonical (re-encoding it gives the same bytes); a 64-byte signature that fails
    /// as R‖S is also tried as DER, since DER signatures of exactly that length exist. Any bytes are safe to
    /// pass: whatever is not a valid signature is `.invalid`.
    public func verify(signature: [UInt8], message: [UInt8]) -> ES256SignatureValidity {
        if signature.count == ES256.rawSignatureLength {
            if let der = ES256.derSignature(fromRaw: signature), verify(der: der, message: message) {
                return .validRaw
            }
            if signature[0] == 0x30, ES256.isCanonicalDER(signature), verify(der: signature, message: message) {
                return .validDER
            }
            return .invalid
        }
        guard ES256.isCanonicalDER(signature), verify(der: signature, message: message) else {
            return .invalid
        }
        return .validDER
    }

    /// The key as a SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    public var pem: String {
        ERR_clear_error()
        guard let pem = OpenSSL.writeToMemoryBIO({ PEM_write_bio_PUBKEY($0, key) == 1 }) else {
            preconditionFailure("OpenSSL could not write a P-256 public key as PEM: \(OpenSSL.drainErrors())")
        }
        return pem
    }

    /// Checks a DER signature over `message` with SHA-256.
    private func verify(der: [UInt8], message: [UInt8]) -> Bool {
        ERR_clear_error()
        guard let context = EVP_MD_CTX_new() else {
            ERR_clear_error()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            ERR_clear_error()
            return false
        }
        let result = der.withUnsafeBufferPointer { signature in
            message.withUnsafeBufferPointer { message in
                EVP_DigestVerify(context, signature.baseAddress, signature.count, message.baseAddress, message.count)
            }
        }
        // 0 is a wrong signature, a negative value a malformed one; both leave entries on the error queue.
        if result != 1 {
            ERR_clear_error()
        }
        return result == 1
    }
}
