import COpenSSL

/// Whether an ES256 signature is valid, and in which encoding.
///
/// "APNs accepts both" the raw 64-byte R‖S and the DER encoding (apns-reference.md §5; seen); the mock accepts
/// both and records which one the client used.
public enum ES256SignatureValidity: Sendable, Hashable {
    /// Valid, as the 64-byte R‖S that JWS (RFC 7518 §3.4) prescribes.
    case validRaw
    /// Valid, as a DER `ECDSA-Sig-Value` (Pushy, Apple's own sample token).
    case validDER
    /// Not a valid signature of the message by this key, in either encoding.
    case invalid
}

/// How `ES256PrivateKey.sign` encodes a signature.
public enum ES256SignatureEncoding: Sendable {
    /// The 64-byte R‖S of RFC 7518 §3.4, each half left-padded to 32 bytes.
    case raw
    /// A DER `SEQUENCE { INTEGER r, INTEGER s }`, 8 to 72 bytes.
    case der
}

/// Why a P-256 key could not be loaded.
public struct ES256Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with OpenSSL's own words when it had some.
    public let message: String

    /// An error saying `message`.
    init(_ message: String) {
        self.message = message
    }

    /// The message, so that string interpolation and logs show it plainly.
    public var description: String { message }
}

/// Shared ES256 plumbing: reading PEM keys, checking the curve, and converting signature encodings.
enum ES256 {
    /// The length of a raw R‖S signature on P-256.
    static let rawSignatureLength = 64
    /// The longest DER signature on P-256: `30 46 02 21 00<32 bytes> 02 21 00<32 bytes>`.
    static let maximumDERSignatureLength = 72

    /// Reads the first key in `pem`: a `PUBLIC KEY` block when `public` is set, else a `PRIVATE KEY` (PKCS#8,
    /// Apple's `.p8`) or `EC PRIVATE KEY` (SEC1) block. The caller owns the returned `EVP_PKEY`.
    static func readKey(pem: String, public: Bool) throws(ES256Error) -> OpaquePointer {
        ERR_clear_error()
        // The pass-phrase callback refuses: without one, OpenSSL would prompt on the terminal for an encrypted
        // key and block the server.
        let key = OpenSSL.withMemoryBIO(over: pem) { bio in
            if `public` {
                PEM_read_bio_PUBKEY(bio, nil, { _, _, _, _ in 0 }, nil)
            } else {
                PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
            }
        }
        guard let key = key ?? nil else {
            let reason = OpenSSL.drainErrors()
            let wanted = `public` ? "PUBLIC KEY" : "PRIVATE KEY or EC PRIVATE KEY"
            throw ES256Error("no readable \(wanted) in the PEM\(reason.isEmpty ? "" : " (OpenSSL: \(reason))")")
        }
        do {
            try requireP256(key)
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
        return key
    }

    /// Throws unless `key` is an elliptic-curve key on P-256 (`prime256v1`).
    static func requireP256(_ key: OpaquePointer) throws(ES256Error) {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else {
            throw ES256Error("the key is not an elliptic-curve key; APNs keys are P-256 (ES256)")
        }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            throw ES256Error("the elliptic-curve key has no named curve; APNs keys are P-256 (ES256)")
        }
        let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard curve == "prime256v1" || curve == "P-256" else {
            throw ES256Error("the key is on curve \(curve), not P-256 (prime256v1) as ES256 needs")
        }
    }

    /// A new `EVP_PKEY` holding only the public half of `key`, made by a SubjectPublicKeyInfo round trip.
    static func publicOnlyCopy(of key: OpaquePointer) -> OpaquePointer? {
        ERR_clear_error()
        guard let der = OpenSSL.derEncoding({ i2d_PUBKEY(key, $0) }) else { return nil }
        let length = der.count
        let copy = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, Int(length))
        }
        if copy == nil {
            ERR_clear_error()
        }
        return copy
    }

    /// The DER encoding of a raw R‖S signature; `nil` if it is not 64 bytes or OpenSSL fails.
    static func derSignature(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawSignatureLength, let signature = ECDSA_SIG_new() else {
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        let half = Int32(rawSignatureLength / 2)
        let (r, s) = raw.withUnsafeBufferPointer { buffer -> (OpaquePointer?, OpaquePointer?) in
            guard let base = buffer.baseAddress else {
                return (nil, nil)
            }
            return (BN_bin2bn(base, half, nil), BN_bin2bn(base + Int(half), half, nil))
        }
        // ECDSA_SIG_set0 takes ownership of r and s only when it succeeds.
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            ERR_clear_error()
            return nil
        }
        return encode(signature)
    }

    /// Whether `der` is exactly the DER encoding of an ECDSA signature: it parses, with nothing after it, and
    /// re-encodes to the same bytes (so BER length forms, extra leading zeros and trailing garbage fail).
    static func isCanonicalDER(_ der: [UInt8]) -> Bool {
        guard der.count >= 8, der.count <= maximumDERSignatureLength, der[0] == 0x30 else {
            return false
        }
        guard let signature = decode(der) else {
            return false
        }
        defer { ECDSA_SIG_free(signature) }
        return encode(signature) == der
    }

    /// The 64-byte R‖S form of a DER signature, each half left-padded to 32 bytes; `nil` if it does not parse
    /// or a half does not fit.
    static func rawSignature(fromDER der: [UInt8]) -> [UInt8]? {
        guard let signature = decode(der) else {
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(signature, &r, &s)
        guard let r, let s else {
            return nil
        }
        let half = rawSignatureLength / 2
        var raw = [UInt8](repeating: 0, count: rawSignatureLength)
        let written = raw.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else {
                return false
            }
            return BN_bn2binpad(r, base, Int32(half)) == half && BN_bn2binpad(s, base + half, Int32(half)) == half
        }
        guard written else {
            ERR_clear_error()
            return nil
        }
        return raw
    }

    /// Parses a DER signature that must use every byte; the caller frees the result.
    private static func decode(_ der: [UInt8]) -> OpaquePointer? {
        ERR_clear_error()
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let base = buffer.baseAddress else {
                return nil
            }
            var cursor: UnsafePointer<UInt8>? = base
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else {
                ERR_clear_error()
                return nil
            }
            guard let cursor, cursor == base + buffer.count else {
                ECDSA_SIG_free(signature)
                return nil
            }
            return signature
        }
    }

    /// The DER encoding of an `ECDSA_SIG`.
    private static func encode(_ signature: OpaquePointer) -> [UInt8]? {
        OpenSSL.derEncoding { i2d_ECDSA_SIG(signature, $0) }
    }
}
