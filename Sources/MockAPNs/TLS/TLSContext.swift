import COpenSSL
import Foundation

/// The server's TLS configuration: one OpenSSL `SSL_CTX`, shared by every connection.
///
/// TLS 1.2 or later (doc). ALPN `h2` is chosen when offered; a client that offers no ALPN at all is accepted
/// and expected to speak HTTP/2 at once (aioapns and Pushy do this, seen/lib); a client that offers only
/// other protocols gets `http/1.1` so that it can be told in plain words that APNs speaks HTTP/2.
public final class TLSContext: @unchecked Sendable {
    // SSL_CTX is reference counted and safe to share once configured; it is never mutated after init.
    let context: OpaquePointer

    /// Creates a context from PEM text: the certificate chain (leaf first) and its private key.
    public init(certificateChainPEM: String, privateKeyPEM: String, requestClientCertificate: Bool) throws(TLSError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError.fromQueue("SSL_CTX_new failed") }
        self.context = context
        guard COpenSSL_SSL_CTX_set_min_proto_version(context, COpenSSL_TLS1_2_VERSION()) == 1 else {
            throw TLSError.fromQueue("cannot require TLS 1.2")
        }
        _ = COpenSSL_SSL_CTX_set_mode(
            context,
            // Not SSL_MODE_RELEASE_BUFFERS: it frees and reallocates OpenSSL's buffers around every read and write.
            COpenSSL_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER() | COpenSSL_SSL_MODE_ENABLE_PARTIAL_WRITE())
        SSL_CTX_set_options(context, COpenSSL_SSL_OP_NO_COMPRESSION() | COpenSSL_SSL_OP_NO_RENEGOTIATION())

        try Self.useCertificateChain(certificateChainPEM, in: context)
        try Self.usePrivateKey(privateKeyPEM, in: context)
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw TLSError.fromQueue("the private key does not match the certificate")
        }

        if requestClientCertificate {
            // Optional for the client: a certificate makes a certificate-based connection, none a token one.
            COpenSSL_SSL_CTX_request_client_certificate(context)
            let sessionContext: [UInt8] = Array("mock-apns".utf8)
            _ = SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count))
        }
        COpenSSL_SSL_CTX_set_alpn_select_cb(context, selectALPN, nil)
        // SSL_OP_NO_RENEGOTIATION makes OpenSSL answer a TLS 1.2 renegotiation with a warning alert and go on;
        // the callback notes it so that the connection ends there (a client may ignore a warning and wait).
        SSL_CTX_set_info_callback(context, tlsInfoCallback)
    }

    /// Creates a context from PEM files.
    public convenience init(certificateFile: String, privateKeyFile: String, requestClientCertificate: Bool) throws(TLSError) {
        guard let certificate = try? String(contentsOfFile: certificateFile, encoding: .utf8) else {
            throw TLSError("cannot read the certificate file \(certificateFile)")
        }
        guard let key = try? String(contentsOfFile: privateKeyFile, encoding: .utf8) else {
            throw TLSError("cannot read the private key file \(privateKeyFile)")
        }
        try self.init(certificateChainPEM: certificate, privateKeyPEM: key, requestClientCertificate: requestClientCertificate)
    }

    deinit {
        SSL_CTX_free(context)
    }

    private static func useCertificateChain(_ pem: String, in context: OpaquePointer) throws(TLSError) {
        let outcome = OpenSSL.withMemoryBIO(over: pem) { bio -> TLSError? in
            guard let leaf = PEM_read_bio_X509(bio, nil, nil, nil) else {
                return .fromQueue("the certificate is not PEM")
            }
            defer { X509_free(leaf) }
            guard SSL_CTX_use_certificate(context, leaf) == 1 else { return .fromQueue("cannot use the certificate") }
            while let intermediate = PEM_read_bio_X509(bio, nil, nil, nil) {
                // SSL_CTX_add0_chain_cert takes ownership on success.
                if SSL_CTX_ctrl(context, SSL_CTRL_CHAIN_CERT, 0, UnsafeMutableRawPointer(intermediate)) != 1 {
                    X509_free(intermediate)
                    return .fromQueue("cannot add an intermediate certificate")
                }
            }
            ERR_clear_error()  // the loop ends on a "no start line" error
            return nil
        }
        if let failure = outcome ?? TLSError("cannot read the certificate") { throw failure }
    }

    private static func usePrivateKey(_ pem: String, in context: OpaquePointer) throws(TLSError) {
        let outcome = OpenSSL.withMemoryBIO(over: pem) { bio -> TLSError? in
            // A passphrase callback that gives none: an encrypted key is refused instead of prompting on the terminal.
            guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else {
                return .fromQueue("the private key is not an unencrypted PEM key")
            }
            defer { EVP_PKEY_free(key) }
            guard SSL_CTX_use_PrivateKey(context, key) == 1 else { return .fromQueue("cannot use the private key") }
            return nil
        }
        if let failure = outcome ?? TLSError("cannot read the private key") { throw failure }
    }
}

/// ALPN: `h2` if offered; else `http/1.1` if offered (to refuse it in words); else no agreement.
///
/// The chosen protocol must point into the client's list (pitfalls.md), so the list is walked in place.
private func selectALPN(
    _ ssl: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ outLength: UnsafeMutablePointer<UInt8>?,
    _ input: UnsafePointer<UInt8>?, _ inputLength: UInt32, _ arg: UnsafeMutableRawPointer?
) -> Int32 {
    guard let out, let outLength, let input else { return COpenSSL_SSL_TLSEXT_ERR_NOACK() }
    var fallback: (UnsafePointer<UInt8>, UInt8)?
    var offset = 0
    let total = Int(inputLength)
    while offset < total {
        let length = Int(input[offset])
        let start = offset + 1
        guard length > 0, start + length <= total else { break }
        let name = UnsafeBufferPointer(start: input + start, count: length)
        if name.elementsEqual("h2".utf8) {
            out.pointee = input + start
            outLength.pointee = UInt8(length)
            return COpenSSL_SSL_TLSEXT_ERR_OK()
        }
        if name.elementsEqual("http/1.1".utf8) { fallback = (input + start, UInt8(length)) }
        offset = start + length
    }
    if let (pointer, length) = fallback {
        out.pointee = pointer
        outLength.pointee = length
        return COpenSSL_SSL_TLSEXT_ERR_OK()
    }
    return COpenSSL_SSL_TLSEXT_ERR_NOACK()
}
