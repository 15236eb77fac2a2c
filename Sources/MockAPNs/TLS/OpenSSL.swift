import COpenSSL

/// Small OpenSSL 3 helpers shared by the TLS layer and the key and certificate readers: memory BIOs, DER
/// encoding and the error queue.
enum OpenSSL {
    /// Empties this thread's OpenSSL error queue and describes what was in it, most recent last.
    ///
    /// The queue is per thread; leaving entries behind would make a later, unrelated OpenSSL call on the same
    /// thread look as if it had failed.
    static func drainErrors() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 {
                break
            }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.joined(separator: "; ")
    }

    /// Runs `body` with a read-only memory BIO over the UTF-8 bytes of `text`; `nil` if the BIO cannot be made
    /// (or `text` is over 2 GiB).
    ///
    /// The BIO points into a copy of `text` that lives only for this call, so the BIO is freed before this returns
    /// and must not escape `body`.
    static func withMemoryBIO<Result>(over text: String, _ body: (OpaquePointer) -> Result) -> Result? {
        var bytes = Array(text.utf8)
        // An empty array may have no base address; a lone newline reads as "no PEM" just the same.
        if bytes.isEmpty {
            bytes = [0x0A]
        }
        return bytes.withUnsafeBytes { buffer -> Result? in
            guard let base = buffer.baseAddress, let length = Int32(exactly: buffer.count),
                let bio = BIO_new_mem_buf(base, length)
            else {
                return nil
            }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// Runs `body` with a fresh writable memory BIO and returns what it wrote as a string; `nil` if `body`
    /// returns `false` or the BIO cannot be made.
    static func writeToMemoryBIO(_ body: (OpaquePointer) -> Bool) -> String? {
        guard let method = BIO_s_mem(), let bio = BIO_new(method) else {
            return nil
        }
        defer { BIO_free(bio) }
        guard body(bio) else {
            return nil
        }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = COpenSSL_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else {
            return nil
        }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
    }

    /// The bytes an OpenSSL `i2d_*` function writes: `encode` is called once to size and once to fill the
    /// buffer (it gets `nil`, then a pointer to the cursor). `nil` when OpenSSL fails.
    static func derEncoding(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let length = encode(nil)
        guard length > 0 else {
            ERR_clear_error()
            return nil
        }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return encode(&cursor)
        }
        guard written == length else {
            ERR_clear_error()
            return nil
        }
        return der
    }
}
