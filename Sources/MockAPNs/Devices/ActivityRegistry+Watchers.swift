import NIOConcurrencyHelpers

/// One change of an activity in the registry, as the registry's watchers hear of it.
struct ActivityRegistryEvent: Sendable {
    /// Numbered from 1 in the order the registry told its watchers (an event stream's ids).
    var sequence: UInt64
    var kind: ActivityChange.Kind
    /// The activity after the change.
    var activity: LiveActivity
    /// What the phone did with the push, for `.pushed`.
    var outcome: DeviceOutcome.Kind?
}

/// The registry's watchers (event streams, waiters) and the number of the last change.
struct ActivityWatchers {
    var watchers: [(id: UInt64, watch: @Sendable (ActivityRegistryEvent) -> Void)] = []
    var nextWatcherID: UInt64 = 0
    var lastSequence: UInt64 = 0
}

extension ActivityRegistry {
    /// Calls `watch` for every change from now on (a start, a push that reached an activity, a rotation, a
    /// dismissal), after the registry's lock is released, until the returned id is removed.
    func addWatcher(_ watch: @escaping @Sendable (ActivityRegistryEvent) -> Void) -> UInt64 {
        watchers.withLockedValue { state in
            state.nextWatcherID += 1
            state.watchers.append((state.nextWatcherID, watch))
            return state.nextWatcherID
        }
    }

    /// Stops calling the watcher `id`.
    func removeWatcher(_ id: UInt64) {
        watchers.withLockedValue { state in state.watchers.removeAll { $0.id == id } }
    }

    /// Tells every watcher that `activity` changed by `kind`; the watchers run outside every lock, so one may read
    /// the registry again.
    func notify(_ kind: ActivityChange.Kind, _ activity: LiveActivity, outcome: DeviceOutcome.Kind? = nil) {
        let (sequence, listeners) = watchers.withLockedValue { state in
            state.lastSequence += 1
            return (state.lastSequence, state.watchers.map(\.watch))
        }
        guard !listeners.isEmpty else { return }
        let event = ActivityRegistryEvent(sequence: sequence, kind: kind, activity: activity, outcome: outcome)
        for listener in listeners { listener(event) }
    }
}
