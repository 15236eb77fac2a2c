extension JournalRecord {
    /// The most payload bytes a record keeps: 5120, the largest payload APNs accepts (a VoIP push).
    ///
    /// A longer payload is never valid, so its first 5120 bytes show what it was; keeping it whole would let
    /// rejected 64 KiB payloads fill the journal's memory.
    public static let keptPayloadLimit = 5120

    /// Whether the record keeps only the first `keptPayloadLimit` bytes of the payload.
    public var payloadTruncated: Bool { verdict.parts.payloadBytes != nil || request.bodyTruncated }

    /// The payload's size as received: counted up to 65,536 bytes, beyond which the server reads no more.
    public var payloadBytes: Int { verdict.parts.payloadBytes ?? request.body.count }

    /// What the record counts against the journal's byte budget: the payload kept, the headers' bytes (names,
    /// values and 32 per header: up to 16 KiB) and 1 KiB for the rest. Cheap enough for every append (the header
    /// bytes are added up once per request content); it errs high, since repeated requests share their bytes.
    var journalBytes: Int { request.body.count &+ request.headerBytes &+ 1024 }

    /// Cuts `content`'s body to `keptPayloadLimit` bytes and notes the size received in `verdict`.
    static func cutPayload(_ content: inout APNsRequest.Content, _ verdict: inout Verdict.Parts) {
        verdict.payloadBytes = content.body.count
        guard content.body.count > keptPayloadLimit else { return }
        content = content.changing(body: Array(content.body.prefix(keptPayloadLimit)))
    }
}
