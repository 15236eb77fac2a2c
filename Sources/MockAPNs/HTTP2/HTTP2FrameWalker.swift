/// Finds the frame headers in the client's bytes before nghttp2 reads them, across reads: the connection preface
/// first, then 9-byte headers each followed by its payload.
///
/// Used for the checks nghttp2 1.52 gives no callback for: DATA on a stream it no longer holds is dropped
/// without `on_begin_frame` (`session_on_data_received_fail_fast` returns `NGHTTP2_ERR_IGN_PAYLOAD` first); and,
/// so that no per-frame callback is needed at all, to find the HEADERS whose check must wait until nghttp2 has
/// read the frames before them (`HTTP2Session.checkFrames`).
struct HTTP2FrameWalker {
    /// Preface bytes still to skip.
    private var prefaceLeft = 24
    /// Payload bytes of the current frame still to skip.
    private var payloadLeft = 0
    /// The part of a frame header split across reads.
    private var partialHeader: [UInt8] = []

    /// Calls `check(type, streamID)` for each frame header in `bytes`; when it returns false, stops and returns the
    /// offset in `bytes` where that frame starts (0 when its header began in an earlier read). Returns nil when
    /// every frame passed.
    mutating func walk(_ bytes: UnsafeRawBufferPointer, check: (UInt8, Int32) -> Bool) -> Int? {
        walk(bytes, checkingAt: { type, streamID, _ in check(type, streamID) })
    }

    /// `walk(_:check:)`, with the offset in `bytes` where each frame starts (0 when its header began in an earlier
    /// read) as `check`'s third argument.
    mutating func walk(_ bytes: UnsafeRawBufferPointer, checkingAt check: (UInt8, Int32, Int) -> Bool) -> Int? {
        var index = 0
        let count = bytes.count
        if prefaceLeft > 0 {
            let skipped = min(prefaceLeft, count)
            prefaceLeft -= skipped
            index = skipped
        }
        while index < count {
            if payloadLeft > 0 {
                let skipped = min(payloadLeft, count - index)
                payloadLeft -= skipped
                index += skipped
                continue
            }
            let start = index
            var splitHeader = false
            let type: UInt8
            let streamID: Int32
            let length: Int
            if partialHeader.isEmpty, count - index >= 9 {
                length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
                type = bytes[index + 3]
                streamID = Self.streamID(bytes[index + 5], bytes[index + 6], bytes[index + 7], bytes[index + 8])
                index += 9
            } else {
                let needed = 9 - partialHeader.count
                let taken = min(needed, count - index)
                partialHeader.append(contentsOf: bytes[index..<(index + taken)])
                index += taken
                guard partialHeader.count == 9 else { return nil }
                let header = partialHeader
                partialHeader.removeAll(keepingCapacity: true)
                // Completed here, so begun in an earlier read (a header that fits in this one takes the path above).
                splitHeader = true
                length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
                type = header[3]
                streamID = Self.streamID(header[5], header[6], header[7], header[8])
            }
            payloadLeft = length
            if !check(type, streamID, splitHeader ? 0 : start) { return splitHeader ? 0 : start }
        }
        return nil
    }

    private static func streamID(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int32 {
        Int32(bitPattern: (UInt32(a & 0x7F) << 24) | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d))
    }
}
