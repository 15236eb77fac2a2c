/// When to announce a new SETTINGS_MAX_CONCURRENT_STREAMS: a lowering at most once per interval per connection, a
/// raise at once.
///
/// APNs lowers the limit to 1 after a rejected push and raises it after the next accepted one (§2, seen): one
/// SETTINGS frame per flip. swift-nio-http2 (APNSwift, AsyncHTTPClient) ends a connection with GOAWAY
/// ENHANCE_YOUR_CALM after about 200 control frames in 30 seconds, so alternating good and bad pushes would cut its
/// connections. A lowering inside one interval after the last one is held until the interval ends and sent with the
/// next answer, if still wanted then. A raise goes out at once: it is what APNs sends after the next accepted push,
/// and holding it kept a client at one stream for up to an interval after that push (a provider with 1 push in 40
/// rejected then ran at one stream most of the time). That is at most two frames per interval; a value the client
/// already has is never sent again.
///
/// The held value waits for an answer rather than a timer: a SETTINGS frame alone on an idle connection trips an
/// assertion in AsyncHTTPClient's connection pool (1.x debug builds, `scheduleIdleTimerForConnection`), and a client
/// with one stream still gets its answers, so nothing waits on the announcement.
///
/// A state machine without I/O: each method takes the time (monotonic nanoseconds) and returns what to do.
struct StreamLimitAnnouncer {
    /// What the connection should announce.
    enum Announcement: Equatable {
        /// Nothing now (the value is the client's already, or a change is already held).
        case none
        /// Send SETTINGS_MAX_CONCURRENT_STREAMS = value now.
        case announce(UInt32)
        /// The change is held: call `release(now:)` with an answer sent at or after this time (monotonic ns).
        case hold(until: UInt64)
    }

    /// The value the client last got (the connection preface's to begin with).
    private(set) var announced: UInt32
    /// The value the connection's standing asks for now.
    private(set) var desired: UInt32
    /// When the last lowering was announced; `nil` before the first (the preface's SETTINGS does not count).
    private var lastLowering: UInt64?
    /// Until when a lowering is held, while one is.
    private(set) var heldUntil: UInt64?

    /// Starts with the value the connection preface announced.
    init(initial: UInt32) {
        announced = initial
        desired = initial
    }

    /// The standing now asks for `value`; `interval` is the least time between two lowerings, in nanoseconds.
    mutating func want(_ value: UInt32, now: UInt64, interval: UInt64) -> Announcement {
        desired = value
        // Back to what the client has: nothing to send, and a held lowering will find nothing to do.
        guard value != announced else { return .none }
        if value > announced {
            heldUntil = nil
            return announce(now: now)
        }
        if heldUntil != nil { return release(now: now) }
        if let last = lastLowering, now &- last < interval {
            let (sum, overflow) = last.addingReportingOverflow(interval)
            let due = overflow ? UInt64.max : sum
            heldUntil = due
            return .hold(until: due)
        }
        return announce(now: now)
    }

    /// An answer is going out: a held lowering is announced once its interval has ended, if it is still wanted.
    mutating func release(now: UInt64) -> Announcement {
        guard let due = heldUntil, now >= due else { return .none }
        heldUntil = nil
        guard desired != announced else { return .none }
        return announce(now: now)
    }

    /// The last `.announce` could not be sent: the client still has `value`, and the next change is sent at once.
    mutating func notAnnounced(clientHas value: UInt32) {
        announced = value
        lastLowering = nil
    }

    private mutating func announce(now: UInt64) -> Announcement {
        if desired < announced { lastLowering = now }
        announced = desired
        return .announce(desired)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, 0 when negative, `UInt64.max` when it does not fit.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let (sum, overflow2) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow2 ? .max : sum
    }
}
