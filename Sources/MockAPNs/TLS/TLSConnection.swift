import COpenSSL
import NIOCore

/// One server-side TLS connection over memory BIOs: ciphertext in, plaintext out, and back.
///
/// It never touches a socket (the shape of swift-nio-ssl's `SSLConnection`), so it can be pumped in memory.
final class TLSConnection {
    /// The state of the handshake after feeding it bytes.
    enum HandshakeState {
        case inProgress
        case complete
        case failed(TLSError)
    }

    private let ssl: OpaquePointer
    private let networkIn: OpaquePointer  // the BIO OpenSSL reads ciphertext from
    private let networkOut: OpaquePointer  // the BIO OpenSSL writes ciphertext to
    private(set) var isHandshakeComplete = false
    /// Set when OpenSSL refused a client's renegotiation with a no_renegotiation alert: the connection must end.
    fileprivate(set) var refusedRenegotiation = false

    init(context: TLSContext) throws(TLSError) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.context) else { throw TLSError.fromQueue("SSL_new failed") }
        guard let networkIn = BIO_new(BIO_s_mem()), let networkOut = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSError.fromQueue("BIO_new failed")
        }
        // An empty memory BIO reports "retry" rather than end of file.
        BIO_ctrl(networkIn, BIO_C_SET_BUF_MEM_EOF_RETURN, -1, nil)
        BIO_ctrl(networkOut, BIO_C_SET_BUF_MEM_EOF_RETURN, -1, nil)
        SSL_set_bio(ssl, networkIn, networkOut)  // the SSL owns both BIOs from here
        SSL_set_accept_state(ssl)
        self.ssl = ssl
        self.networkIn = networkIn
        self.networkOut = networkOut
        // For the info callback (`TLSContext`): unretained, valid because this object owns and frees the SSL.
        SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        SSL_free(ssl)
        ERR_clear_error()
    }

    /// Hands OpenSSL ciphertext that arrived from the network.
    func consumeDataFromNetwork(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            // A memory BIO takes everything it is given.
            _ = BIO_write(networkIn, base, Int32(bytes.count))
        }
    }

    /// Advances the handshake with what has been consumed so far.
    func doHandshake() -> HandshakeState {
        guard !isHandshakeComplete else { return .complete }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isHandshakeComplete = true
            return .complete
        }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return .inProgress }
        return .failed(TLSError.fromQueue("TLS handshake failed"))
    }

    /// The protocol ALPN agreed, or `nil` when the client offered none.
    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The certificate the client presented, parsed for APNs; `nil` when it presented none.
    func clientCertificate() -> Result<APNsClientCertificate, APNsClientCertificateError>? {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(certificate) }
        return Result { () throws(APNsClientCertificateError) in try APNsClientCertificate(x509: certificate) }
    }

    /// Decrypts whatever application data is available, appending it to `buffer`.
    /// Returns `false` when the peer closed the TLS session or it failed.
    func readPlaintext(into buffer: inout ByteBuffer) -> Bool {
        while true {
            ERR_clear_error()
            var result: Int32 = 0
            // The closure reports bytes written, so a negative SSL_read result must not escape through it.
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 16_384) { bytes in
                result = SSL_read(ssl, bytes.baseAddress, Int32(clamping: bytes.count))
                return Int(max(0, result))
            }
            if result > 0 { continue }
            let error = SSL_get_error(ssl, result)
            switch error {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return true
            default: return false
            }
        }
    }

    /// Encrypts `bytes` for the network; fetch the ciphertext with `takeCiphertext`.
    func writePlaintext(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            let written = SSL_write(ssl, bytes.baseAddress! + offset, Int32(bytes.count - offset))
            guard written > 0 else { return false }
            offset += Int(written)
        }
        return true
    }

    /// Starts a TLS close_notify.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
    }

    /// Whether ciphertext is waiting to be sent.
    var hasCiphertext: Bool { COpenSSL_BIO_ctrl_pending(networkOut) > 0 }

    /// How many ciphertext bytes are waiting to be sent.
    var pendingCiphertext: Int { Int(COpenSSL_BIO_ctrl_pending(networkOut)) }

    /// Moves all pending ciphertext into `buffer`.
    func takeCiphertext(into buffer: inout ByteBuffer) {
        while true {
            let pending = Int(COpenSSL_BIO_ctrl_pending(networkOut))
            guard pending > 0 else { return }
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { bytes in
                Int(max(0, BIO_read(networkOut, bytes.baseAddress, Int32(pending))))
            }
        }
    }
}

/// OpenSSL's info callback: notes a no_renegotiation alert sent to the client on the connection it belongs to.
///
/// Set on the context (`TLSContext`); OpenSSL calls it on handshake steps and alerts only, never per record.
func tlsInfoCallback(_ ssl: OpaquePointer?, _ where: Int32, _ value: Int32) {
    let writeAlert: Int32 = 0x4000 | 0x08  // SSL_CB_ALERT | SSL_CB_WRITE
    let noRenegotiation: Int32 = 100  // SSL_AD_NO_RENEGOTIATION
    guard `where` & writeAlert == writeAlert, value & 0xff == noRenegotiation, let ssl,
        let owner = SSL_get_ex_data(ssl, 0)
    else { return }
    Unmanaged<TLSConnection>.fromOpaque(owner).takeUnretainedValue().refusedRenegotiation = true
}
