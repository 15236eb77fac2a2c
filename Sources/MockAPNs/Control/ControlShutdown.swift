import NIOConcurrencyHelpers

/// The long requests in progress (waits, event streams), so that stopping the control API can end them.
///
/// Hummingbird's graceful shutdown lets requests in flight finish; a stream never finishes by itself and a wait
/// may have minutes left, so each registers how to end it early.
final class ControlShutdown: Sendable {
    private struct State {
        var stopped = false
        var next = 0
        var enders: [Int: @Sendable () -> Void] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Registers `end`; returns its id, or `nil` (and calls `end` at once) when the API is already stopping.
    func register(_ end: @escaping @Sendable () -> Void) -> Int? {
        let id = state.withLockedValue { state -> Int? in
            guard !state.stopped else { return nil }
            state.next += 1
            state.enders[state.next] = end
            return state.next
        }
        if id == nil { end() }
        return id
    }

    /// Forgets the request `id` (it ended by itself).
    func unregister(_ id: Int?) {
        guard let id else { return }
        _ = state.withLockedValue { $0.enders.removeValue(forKey: id) }
    }

    /// Ends every long request now and every one registered later.
    func stopAll() {
        let enders = state.withLockedValue { state in
            state.stopped = true
            defer { state.enders = [:] }
            return Array(state.enders.values)
        }
        for end in enders { end() }
    }
}
