import Foundation

/// What the person and the app do to activities, beside pushes: rotate a token, swipe one away, start one locally.
extension ActivityRegistry {
    /// Gives the running activity `id` a new update token, as the phone does from time to time; the old token is no
    /// longer an update token from now on (pushes to it go wherever an unknown token goes).
    ///
    /// "Tokens: push-to-start and update tokens rotate; APNs never tells the provider — the app uploads new ones"
    /// (live-activities.md §2, doc). Refused for an activity that no longer runs at `now`.
    public func rotateToken(id: String, now: Date, lifetimes: ActivityLifetimes = .standard) throws(
        ActivityChangeRefusal
    ) -> LiveActivity {
        try change(id, .rotated, allowed: { $0.isRunning }, now: now, lifetimes: lifetimes) { activity, store in
            var token = Self.randomToken()
            let old = DeviceToken(validated: activity.updateToken)
            while store.tokens[token] != nil || token == old { token = Self.randomToken() }
            store.tokens[old] = nil
            store.tokens[token] = id
            activity.updateToken = token.hex
        }
    }

    /// The person swipes the activity `id` away at `now`: it is dismissed from then on, and the pushes that reach
    /// it later are ignored ("dismissed by the person"). Refused for an activity already dismissed.
    public func dismiss(id: String, now: Date, lifetimes: ActivityLifetimes = .standard) throws(
        ActivityChangeRefusal
    ) -> LiveActivity {
        try change(id, .dismissed, allowed: { $0 != .dismissed }, now: now, lifetimes: lifetimes) { activity, _ in
            activity.dismissedAt = now
        }
    }

    /// Changes the activity `id` under the lock when its state at `now` is `allowed`, then tells the watchers.
    private func change(
        _ id: String, _ kind: ActivityChange.Kind, allowed: (ActivityState) -> Bool, now: Date,
        lifetimes: ActivityLifetimes, _ apply: (inout LiveActivity, inout Store) -> Void
    ) throws(ActivityChangeRefusal) -> LiveActivity {
        let result = store.withLockedValue { store -> Result<LiveActivity, ActivityChangeRefusal> in
            guard var activity = store.activities[id] else { return .failure(.unknown(id: id)) }
            let state = activity.state(at: now, lifetimes: lifetimes)
            guard allowed(state) else { return .failure(.notAllowed(state: state)) }
            apply(&activity, &store)
            store.activities[id] = activity
            return .success(activity)
        }
        let changed = try result.get()
        notify(kind, changed)
        return changed
    }

    /// Starts an activity as the app itself would (`Activity.request`), at `now`: the type must be one the app
    /// declares and the attributes and content state must decode as its, as for a push-to-start `start`.
    ///
    /// No push started it, so its history starts empty and it has no push `timestamp` yet (any update's applies);
    /// local starts do not count against the push-to-start budget. A `channel` subscribes it (the caller checks
    /// that the channel is live).
    public func startLocally(_ request: ActivityStart, now: Date, types: [String: ActivitySchema]) throws(
        ActivityChangeRefusal
    ) -> LiveActivity {
        guard let schema = types[request.attributesType] else {
            throw .invalid(ActivitySchema.undeclared(request.attributesType, field: "attributesType", among: types))
        }
        let decoded = [schema.decodeAttributes(request.attributes), schema.decodeContentState(request.contentState)]
        if let error = decoded.lazy.compactMap(\.error).first { throw .invalid("does not decode: \(error)") }
        if let problem = ActivitySize.problem(attributes: request.attributes, contentState: request.contentState) {
            throw .invalid(problem)
        }
        var activity = LiveActivity(
            id: "", attributesType: request.attributesType, attributes: request.attributes,
            contentState: request.contentState, updateToken: "", pushToStartToken: request.pushToStartToken,
            startedAt: now, timestamp: 0)
        activity.channel = request.channel
        return start(activity)
    }
}
