import Foundation

/// The Live Activity operations in-process: they read and change the engine's registry at the engine's clock.
extension InProcessControl {
    /// The activities that match `query` at the mock's clock, in start order.
    public func activities(_ query: ActivityQuery) async throws -> [ActivitySnapshot] {
        let now = engine.clock.now()
        let lifetimes = activityLifetimes
        return engine.activities.activities.map { ActivitySnapshot($0, at: now, lifetimes: lifetimes) }
            .filter(query.matches)
    }

    /// The activity with `id`, or whose id starts with `id` (at least `ActivityRegistry.minimumIDPrefix`
    /// characters, any case), or `nil`; a 400 when several ids start with it or it is too short.
    public func activity(id: String) async throws -> ActivitySnapshot? {
        try Self.wholeID(id, in: engine.activities).flatMap(engine.activities.activity(id:)).map(snapshot)
    }

    /// Waits until an activity matches `query` (at the clock when it changes) or `timeout` passes.
    public func waitForActivity(_ query: ActivityQuery, timeout: Duration) async throws -> ActivitySnapshot? {
        let engine = self.engine
        let lifetimes = activityLifetimes
        let found = await engine.activities.waitForActivity(timeout: timeout) { activity in
            query.matches(ActivitySnapshot(activity, at: engine.clock.now(), lifetimes: lifetimes))
        }
        return found.map(snapshot)
    }

    /// Gives the running activity `id` a new update token, which then passes `tokenIssued` (the token upload).
    public func rotateActivityToken(id given: String) async throws -> ActivitySnapshot {
        let id = try Self.existingID(given, in: engine.activities)
        let rotated = try Self.controlError(for: id) { () throws(ActivityChangeRefusal) in
            try engine.activities.rotateToken(id: id, now: engine.clock.now(), lifetimes: activityLifetimes)
        }
        engine.tokenIssued(rotated, event: .rotated)
        return snapshot(rotated)
    }

    /// The person swipes the activity `id` away.
    public func dismissActivity(id given: String) async throws -> ActivitySnapshot {
        let id = try Self.existingID(given, in: engine.activities)
        return snapshot(
            try Self.controlError(for: id) { () throws(ActivityChangeRefusal) in
                try engine.activities.dismiss(id: id, now: engine.clock.now(), lifetimes: activityLifetimes)
            })
    }

    /// Starts an activity as the app would; its token passes `tokenIssued` (the token upload). One subscribed to a
    /// policy-1 channel gets the channel's stored message (`MockAPNsEngine.catchUp`).
    public func startActivity(_ start: ActivityStart) async throws -> ActivitySnapshot {
        let types = engine.activityConfig.withLockedValue { $0.types }
        if let channel = start.channel {
            let environment = engine.world.environment
            guard engine.isChannel(channel, of: nil, in: environment) else {
                throw MockAPNsControlError.badRequest(
                    "channel '\(channel)' is not a live channel of this server's environment (\(environment.rawValue)):"
                        + " create one on the channels port, or declare it in the scenario's channels:;"
                        + " GET /v1/channels lists the live ones")
            }
        }
        let now = engine.clock.now()
        let started = try Self.controlError(for: nil) { () throws(ActivityChangeRefusal) in
            try engine.activities.startLocally(start, now: now, types: types)
        }
        engine.tokenIssued(started, event: .started)
        if let channel = started.channel { engine.catchUp(activityID: started.id, channelID: channel, now: now) }
        return snapshot(started)
    }

    /// The lifetimes the phone runs with (the scenario's `liveActivity:` settings).
    var activityLifetimes: ActivityLifetimes {
        engine.activityConfig.withLockedValue { $0.settings.lifetimes }
    }

    /// `activity` at the mock's clock now.
    func snapshot(_ activity: LiveActivity) -> ActivitySnapshot {
        ActivitySnapshot(activity, at: engine.clock.now(), lifetimes: activityLifetimes)
    }

    /// Runs `change`, turning its refusal into the control API's answer: 404, 409 or 400.
    private static func controlError(
        for id: String?, _ change: () throws(ActivityChangeRefusal) -> LiveActivity
    ) throws(MockAPNsControlError) -> LiveActivity {
        do {
            return try change()
        } catch {
            switch error {
            case .unknown(let id):
                throw unknownActivity(id)
            case .notAllowed(let state):
                let what = state == .dismissed ? "already dismissed" : "\(state.rawValue): the phone no longer runs it"
                throw MockAPNsControlError(status: 409, "activity '\(id ?? "")' is \(what)")
            case .invalid(let message):
                throw .badRequest("the app cannot start this activity: \(message)")
            }
        }
    }

    /// The whole id of the activity `text` names (its id, or a unique prefix of it); `nil` when none does, a 400
    /// when several do or `text` is too short to look up.
    static func wholeID(_ text: String, in registry: ActivityRegistry) throws(MockAPNsControlError) -> String? {
        switch registry.match(id: text) {
        case .found(let id): return id
        case .none: return nil
        case .tooShort:
            throw .badRequest(
                "activity id '\(text)' is too short: give the whole id or at least "
                    + "\(ActivityRegistry.minimumIDPrefix) characters of it (mock-apns activities prints 8)")
        case .ambiguous(let ids):
            let shown = ids.prefix(Self.ambiguousIDsShown).joined(separator: ", ")
            let more = ids.count > Self.ambiguousIDsShown ? " and \(ids.count - Self.ambiguousIDsShown) more" : ""
            throw .badRequest(
                "activity id '\(text)' is ambiguous: \(ids.count) activities start with it (\(shown)\(more)); "
                    + "give more characters")
        }
    }

    /// How many ids an ambiguous prefix's message lists.
    static let ambiguousIDsShown = 10

    /// `wholeID`, with a 404 when no activity has that id.
    private static func existingID(_ text: String, in registry: ActivityRegistry) throws(MockAPNsControlError)
        -> String
    {
        guard let id = try wholeID(text, in: registry) else { throw unknownActivity(text) }
        return id
    }

    /// The 404 for an id no activity has.
    static func unknownActivity(_ id: String) -> MockAPNsControlError {
        .notFound(
            "no activity '\(id)': it never started, or a reset or scenario load cleared it; "
                + "list them with GET /v1/activities")
    }
}
