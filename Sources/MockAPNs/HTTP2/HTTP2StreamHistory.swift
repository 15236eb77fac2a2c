/// What a server session remembers of its closed request streams, to apply RFC 9113 §5.1 without keeping them:
/// nghttp2 runs with `no_closed_streams` (closed streams leave no state), and then ignores DATA or HEADERS on a
/// closed stream, and HEADERS that would open a stream below the highest one, without a word.
///
/// Streams open in increasing order, so every stream up to `highest` was opened, skipped (a gap), or refused. A
/// frame on a closed stream is allowed only when the server reset the stream (RFC 9113 §5.1: the client may not have
/// seen the RST_STREAM yet); otherwise it is a connection error, also after the client's own reset (it may send
/// nothing on a stream it reset). Only the exceptions are stored — the server's recent resets and recent gaps, each
/// bounded — so a push that opens the next stream costs one comparison.
struct HTTP2StreamHistory {
    /// The highest request stream opened.
    private(set) var highest: Int32 = 0
    /// Streams the server recently reset, oldest overwritten first.
    private var resets: [Int32] = []
    private var nextReset = 0
    /// Recently skipped stream ids, as closed ranges, oldest overwritten first.
    private var gaps: [ClosedRange<Int32>] = []
    private var nextGap = 0

    /// How many resets and gaps are remembered; older ones count as normally closed and opened.
    static let capacity = 1024

    /// What a frame on a stream that nghttp2 no longer knows means.
    enum Verdict: Equatable {
        /// Allowed (a stream above the highest, or one the server reset).
        case allowed
        /// DATA or HEADERS on a stream closed after the client's END_STREAM or its RST_STREAM: connection error
        /// STREAM_CLOSED.
        case streamClosed
        /// HEADERS opening a stream numbered below one already opened: connection error PROTOCOL_ERROR.
        case lowerStreamID
    }

    /// A request stream was opened.
    mutating func opened(_ streamID: Int32) {
        if streamID > highest &+ 2, streamID > 2 {
            remember(gap: (highest + 1)...(streamID - 1))
        }
        if streamID > highest { highest = streamID }
    }

    /// The server reset a stream (including streams refused before they opened).
    mutating func reset(_ streamID: Int32) {
        if resets.count < Self.capacity {
            resets.append(streamID)
        } else {
            resets[nextReset] = streamID
            nextReset = (nextReset + 1) % Self.capacity
        }
    }

    private mutating func remember(gap: ClosedRange<Int32>) {
        if gaps.count < Self.capacity {
            gaps.append(gap)
        } else {
            gaps[nextGap] = gap
            nextGap = (nextGap + 1) % Self.capacity
        }
    }

    /// The verdict on a DATA (`isHeaders` false) or HEADERS frame for `streamID`, a client stream nghttp2 does not
    /// hold open.
    func verdict(streamID: Int32, isHeaders: Bool) -> Verdict {
        guard streamID > 0, streamID <= highest, !resets.contains(streamID) else { return .allowed }
        if isHeaders, gaps.contains(where: { $0.contains(streamID) }) { return .lowerStreamID }
        return .streamClosed
    }
}
