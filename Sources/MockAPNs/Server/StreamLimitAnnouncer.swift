/// When to announce a new SETTINGS_MAX_CONCURRENT_STREAMS: at most one SETTINGS frame per interval per connection.
///
/// APNs lowers the limit to 1 after a rejected push and raises it after the next accepted one (§2, seen): one
/// SETTINGS frame per flip. swift-nio-http2 (APNSwift, AsyncHTTPClient) ends a connection with GOAWAY
/// ENHANCE_YOUR_CALM after about 200 control frames in 30 seconds, so alternating good and bad pushes would cut its
/// connections. Flips inside one interval coalesce into the last value, held until the interval ends and sent with
/// the next answer; a value the client already has is never sent again.
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
    /// When the last change was announced; `nil` before the first (the preface's SETTINGS does not count).
    private var lastAnnouncement: UInt64?
    /// Until when a change is held, while one is.
    private(set) var heldUntil: UInt64?

    /// Starts with the value the connection preface announced.
    init(initial: UInt32) {
        announced = initial
        desired = initial
    }

    /// The standing now asks for `value`; `interval` is the least time between two announcements, in nanoseconds.
    mutating func want(_ value: UInt32, now: UInt64, interval: UInt64) -> Announcement {
        desired = value
        if let due = heldUntil {
            guard now >= due else { return .none }
            heldUntil = nil
        }
        // Back to what the client has: nothing to send, and a held change will find nothing to do.
        guard value != announced else { return .none }
        if let last = lastAnnouncement, now &- last < interval {
            let (sum, overflow) = last.addingReportingOverflow(interval)
            let due = overflow ? UInt64.max : sum
            heldUntil = due
            return .hold(until: due)
        }
        return announce(now: now)
    }

    /// An answer is going out: a held change is announced once its interval has ended, if it still differs from the
    /// client's value.
    mutating func release(now: UInt64) -> Announcement {
        guard let due = heldUntil, now >= due else { return .none }
        heldUntil = nil
        guard desired != announced else { return .none }
        return announce(now: now)
    }

    /// The last `.announce` could not be sent: the client still has `value`, and the next change is sent at once.
    mutating func notAnnounced(clientHas value: UInt32) {
        announced = value
        lastAnnouncement = nil
    }

    private mutating func announce(now: UInt64) -> Announcement {
        announced = desired
        lastAnnouncement = now
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
