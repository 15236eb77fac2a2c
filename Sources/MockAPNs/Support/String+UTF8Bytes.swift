import Foundation

/// Byte-level access to a String's UTF-8, for the per-push paths that compare header values, topics and tokens.
///
/// Borrowed, not copied: `withUTF8` needs a `var`, and copying a String into one costs a retain and a release,
/// which showed in profiles at one pair per header name and value. Comparisons are byte for byte, as APNs and
/// HTTP/2 compare them (not by Unicode canonical equivalence, as `==` and `hasSuffix` do).
extension String {
    /// Calls `body` with the string's UTF-8 bytes: a native string lends its storage; any other is copied once.
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }

    /// Whether the string's UTF-8 is exactly `bytes`.
    func utf8Equals(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        withUTF8Bytes { own in
            own.count == bytes.count && (own.isEmpty || memcmp(own.baseAddress!, bytes.baseAddress!, own.count) == 0)
        }
    }

    /// Whether the string's UTF-8 ends with `suffix`'s.
    func utf8HasSuffix(_ suffix: String) -> Bool {
        withUTF8Bytes { own in
            suffix.withUTF8Bytes { end in
                own.count >= end.count
                    && (end.isEmpty || memcmp(own.baseAddress! + (own.count - end.count), end.baseAddress!, end.count) == 0)
            }
        }
    }
}
