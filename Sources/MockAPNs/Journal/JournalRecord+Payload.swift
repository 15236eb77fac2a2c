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
    /// values and 32 per header: up to 16 KiB) and 1 KiB for the rest. Cheap enough for every append (the header
    /// bytes are added up once per request content); it errs high, since repeated requests share their bytes.
    var journalBytes: Int { request.body.count &+ request.headerBytes &+ 1024 }

    /// `content` as a record keeps it: whole, or of a payload over `keptPayloadLimit` bytes (or one the server
    /// stopped reading) only the first `keptPayloadLimit` bytes, with the size received in `receivedBodyBytes`.
    static func kept(_ content: APNsRequest.Content) -> APNsRequest.Content {
        guard content.body.count > keptPayloadLimit || content.bodyTruncated else { return content }
        return content.keepingBodyPrefix(keptPayloadLimit)
    }
}
