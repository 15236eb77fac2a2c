import Foundation

extension JournalRecord {
    /// The most payload bytes a record keeps: 5120, the largest payload APNs accepts (a VoIP push).
    ///
    /// A longer payload is never valid, so its first 5120 bytes show what it was; keeping it whole would let
    /// rejected 64 KiB payloads fill the journal's memory.
    public static let keptPayloadLimit = 5120

    /// Whether the record keeps only the first `keptPayloadLimit` bytes of the payload.
    public var payloadTruncated: Bool { request.receivedBodyBytes != nil || request.bodyTruncated }

    /// The payload's size as received: counted up to 65,536 bytes, beyond which the server reads no more.
    public var payloadBytes: Int { request.receivedBodyBytes ?? request.body.count }

    /// What the record counts against the journal's byte budget: the payload kept, the headers' bytes (names,
    /// values and 32 per header: up to 16 KiB) and 1 KiB for the rest. One load and one add, on every append and
    /// every drop: the content added its bytes up once (`storedBytes`), shared by the requests that repeat it; the
    /// estimate errs high, since those requests share their bytes.
    var journalBytes: Int { request.storedBytes &+ 1024 }

    /// `content` as a record keeps it: whole, or of a payload over `keptPayloadLimit` bytes (or one the server
    /// stopped reading) only the first `keptPayloadLimit` bytes, with the size received in `receivedBodyBytes`.
    ///
    /// Taken and handed back, not lent: a payload within the limit (every valid push) moves through with no copy
    /// and no retain or release; only a cut payload makes a new content.
    @inline(__always)
    static func kept(_ content: consuming APNsRequest.Content) -> APNsRequest.Content {
        if content.body.count > keptPayloadLimit || content.bodyTruncated {
            return content.keepingBodyPrefix(keptPayloadLimit)
        }
        return content
    }

    /// A Live Activity push's `aps.event` (`start`, `update`, `end`); `nil` for any other payload.
    ///
    /// Parses only a payload that holds the bytes `"event"`, so a search for `event:` over a journal of alerts
    /// costs a byte scan per record, not a JSON parse.
    public var apsEvent: String? {
        guard Self.contains(request.body, Self.eventKey) else { return nil }
        return payloadJSON?["aps"]?["event"]?.stringValue
    }

    /// Whether `bytes` holds `key` (not empty): `memchr` for its first byte, then `memcmp`. The generic
    /// `firstRange(of:)` made a search of 100,000 records for `event:` take 0.19 s.
    static func contains(_ bytes: [UInt8], _ key: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { haystack in
            key.withUnsafeBufferPointer { needle in
                guard let base = haystack.baseAddress, let first = needle.first, let keyBase = needle.baseAddress,
                    haystack.count >= needle.count
                else { return false }
                let last = haystack.count - needle.count
                var offset = 0
                while offset <= last {
                    guard let found = memchr(base + offset, Int32(first), last - offset + 1) else { return false }
                    let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + index, keyBase, needle.count) == 0 { return true }
                    offset = index + 1
                }
                return false
            }
        }
    }

    /// `"event"` as bytes, for `apsEvent`'s scan.
    private static let eventKey = Array(#""event""#.utf8)
}
