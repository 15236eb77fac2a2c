import Testing

@testable import MockAPNs

/// The frame-header walker that checks DATA frames before nghttp2 reads them.
@Suite("HTTP2FrameWalker")
struct HTTP2FrameWalkerTests {
    static let bytes: [UInt8] =
        RawTCP.preface + RawTCP.frame(type: 0x4) + RawTCP.frame(type: 0x1, flags: 0x4, stream: 1, payload: [1, 2, 3])
        + RawTCP.frame(type: 0x0, flags: 0x1, stream: 1, payload: Array(repeating: 7, count: 40))
        + RawTCP.frame(type: 0x8, stream: 0, payload: [0, 0, 1, 0]) + RawTCP.frame(type: 0x0, stream: 3)

    static let expected: [String] = ["4/0", "1/1", "0/1", "8/0", "0/3"]

    @Test("finds every frame header whatever the reads' boundaries")
    func everySplit() {
        for split in 0...Self.bytes.count {
            var walker = HTTP2FrameWalker()
            var seen: [String] = []
            for part in [Array(Self.bytes[..<split]), Array(Self.bytes[split...])] {
                let stop = part.withUnsafeBytes { walker.walk($0) { seen.append("\($0)/\($1)"); return true } }
                #expect(stop == nil)
            }
            #expect(seen == Self.expected, "split at \(split)")
        }
    }

    @Test("stops at a refused frame and says where it starts")
    func stopsAt() {
        var walker = HTTP2FrameWalker()
        let stop = Self.bytes.withUnsafeBytes { walker.walk($0) { type, stream in !(type == 0 && stream == 1) } }
        // The preface (24), SETTINGS (9) and HEADERS (12) come before the refused DATA frame.
        #expect(stop == 24 + 9 + 12)

        var split = HTTP2FrameWalker()
        let first = Array(Self.bytes[..<(24 + 9 + 12 + 4)])
        let rest = Array(Self.bytes[(24 + 9 + 12 + 4)...])
        #expect(first.withUnsafeBytes { split.walk($0) { type, _ in type != 0 } } == nil)
        // The refused frame's header began in the earlier read: nothing of this one is read.
        #expect(rest.withUnsafeBytes { split.walk($0) { type, _ in type != 0 } } == 0)
    }
}
