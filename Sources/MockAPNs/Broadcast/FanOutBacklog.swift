import Atomics

/// How many accepted broadcasts wait for their fan-out (`MockAPNsEngine+FanOut`), bounded: a provider that sends
/// broadcasts faster than the phones can take them to a channel with many subscribers gets 429 `TooManyRequests`
/// past `limit` waiting, rather than a queue that grows without bound and fan-outs that arrive hours late.
///
/// A broadcast takes a place when its rules accept it (`BroadcastValidator`, before the channel's budget) and gives
/// it back once its `fan-out` record is appended.
final class FanOutBacklog: Sendable {
    /// The most broadcasts that may wait for their fan-out at once. A fan-out to 10,000 activities takes about
    /// 40 ms (bench/broadcast_fanout.py), so this is seconds of work, far above what a provider test waits for.
    static let limit = 64

    private let waiting = ManagedAtomic<Int>(0)

    /// An empty backlog.
    init() {}

    /// Takes a place for one broadcast; `false` when `limit` are already waiting.
    func reserve() -> Bool {
        var current = waiting.load(ordering: .relaxed)
        while current < Self.limit {
            let (exchanged, original) = waiting.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives back the place of a broadcast whose fan-out ended (or that was refused after reserving).
    func release() {
        waiting.wrappingDecrement(ordering: .acquiringAndReleasing)
    }

    /// How many broadcasts wait now.
    var count: Int { waiting.load(ordering: .relaxed) }
}
