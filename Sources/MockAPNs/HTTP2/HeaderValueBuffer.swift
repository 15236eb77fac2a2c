/// The bytes of an answer's header values, written one after another into one growable buffer that is reused from
/// answer to answer.
///
/// It hands out offsets, not pointers: the buffer may move while it grows, so the caller points at the values only
/// once all are written. It frees its own memory, so its owner (`HTTP2Session`) need not.
final class HeaderValueBuffer {
    // Touched several times per answer, on one event loop and never re-entrantly: no dynamic exclusivity checks
    // (as the session's own per-answer state; they cost about 3 % of a push there).
    /// Where the bytes start; valid until the next `append`.
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// How many bytes are written; set it to 0 to start the next answer's values.
    @exclusivity(unchecked) var count = 0

    /// An empty buffer with room for `capacity` bytes (at least one).
    init(capacity: Int = 128) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Room for `length` more bytes; returns where they start.
    private func reserve(_ length: Int) -> Int {
        if count + length > capacity {
            capacity = max(capacity * 2, count + length)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: base, count: count)
            base.deallocate()
            base = grown
        }
        defer { count += length }
        return count
    }

    /// Appends `bytes`; returns where they start and how many there are.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, length: Int) {
        let offset = reserve(bytes.count)
        if let source = bytes.baseAddress { (base + offset).update(from: source, count: bytes.count) }
        return (offset, bytes.count)
    }

    /// Appends the UTF-8 bytes of `text`.
    func append(_ text: String) -> (offset: Int, length: Int) {
        text.withUTF8Bytes { append($0) }
    }

    /// Appends an answer's id; a generated one is written straight in, never through a String.
    func append(_ id: APNsResponse.ID) -> (offset: Int, length: Int) {
        switch id {
        case .generated(let uuid, let uppercase):
            let offset = reserve(GeneratedUUID.textLength)
            uuid.write(uppercase: uppercase, into: base + offset)
            return (offset, GeneratedUUID.textLength)
        case .text(let text):
            return append(text)
        }
    }
}
