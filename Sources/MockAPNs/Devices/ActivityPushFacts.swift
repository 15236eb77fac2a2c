import Foundation

/// One Live Activity push as the phone reads it (`aps`), and the phone's checks of it (live-activities.md §2).
struct ActivityPushFacts {
    /// Whether the phone admits a `start`: a refusal, or the date warnings of a start that goes ahead.
    enum StartAdmission {
        /// Not started, and why.
        case refused(DeviceOutcome)
        /// It goes ahead, with these warnings about its dates.
        case admitted(warnings: [String])
    }

    var aps: JSONValue
    var event: String
    var now: Date
    var settings: LiveActivitySettings
    /// `aps.timestamp`, seconds since 1970.
    var timestamp: Double?
    /// `aps.stale-date`, seconds since 1970.
    var staleDate: Date?

    init(aps: JSONValue, event: String, now: Date, settings: LiveActivitySettings) {
        self.aps = aps
        self.event = event
        self.now = now
        self.settings = settings
        timestamp = aps["timestamp"]?.doubleValue
        staleDate = aps["stale-date"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
    }

    /// Why any push is dropped whatever it reaches: no known event, no timestamp, a timestamp too far ahead.
    func commonRefusal() -> DeviceOutcome? {
        guard ["start", "update", "end"].contains(event) else {
            return DeviceOutcome(
                .dropped, rule: .activityNotDecodable,
                reason: "aps.event is \(event.isEmpty ? "missing" : "'\(event)'"), not start, update or end")
        }
        guard let timestamp else {
            return DeviceOutcome(.dropped, rule: .activityNotDecodable, reason: "aps.timestamp is missing")
        }
        if let limit = settings.futureTimestampLimit, timestamp - now.timeIntervalSince1970 > limit {
            return DeviceOutcome(
                .dropped, rule: .activityFutureTimestamp,
                reason: "timestamp \(Self.text(timestamp)) is more than \(ActivityDateWarning.spanText(limit)) "
                    + "ahead of the clock (liveActivity.futureTimestampLimit)")
        }
        return nil
    }

    /// Whether the phone admits a `start` to a push-to-start token for `deviceType`: its event, type, alert, data and
    /// size.
    func admitStart(types: [String: ActivitySchema], deviceType: String?) -> StartAdmission {
        guard event == "start" else {
            return .refused(
                DeviceOutcome(
                    .dropped, rule: .activityNotDecodable,
                    reason: "a push-to-start token only starts activities; this is '\(event)'"))
        }
        guard let typeName = aps["attributes-type"]?.stringValue else {
            return .refused(
                DeviceOutcome(
                    .dropped, rule: .activityUnknownType, reason: "aps.attributes-type is missing: nothing starts"))
        }
        guard let schema = types[typeName] else {
            let reason = ActivitySchema.undeclared(typeName, field: "attributes-type", among: types)
            return .refused(DeviceOutcome(.dropped, rule: .activityUnknownType, reason: reason))
        }
        if let deviceType, deviceType != typeName {
            return .refused(
                DeviceOutcome(
                    .dropped, rule: .activityUnknownType,
                    reason: "attributes-type '\(typeName)' is not this push-to-start token's type '\(deviceType)'"))
        }
        if settings.startNeedsAlert, aps["alert"] == nil {
            return .refused(
                DeviceOutcome(
                    .dropped, rule: .activityStartNeedsAlert,
                    reason: "a start without alert (liveActivity.startNeedsAlert)"))
        }
        guard let attributes = aps["attributes"] else {
            return .refused(
                DeviceOutcome(.dropped, rule: .activityNotDecodable, reason: "aps.attributes is missing"))
        }
        guard let contentState = aps["content-state"] else {
            return .refused(
                DeviceOutcome(.dropped, rule: .activityNotDecodable, reason: "aps.content-state is missing"))
        }
        let decoded = [schema.decodeAttributes(attributes), schema.decodeContentState(contentState)]
        if let error = decoded.lazy.compactMap(\.error).first {
            return .refused(DeviceOutcome(.dropped, rule: .activityNotDecodable, reason: error.description))
        }
        if let problem = ActivitySize.problem(attributes: attributes, contentState: contentState) {
            return .refused(DeviceOutcome(.dropped, rule: .activityTooLarge, reason: problem))
        }
        return .admitted(warnings: dateWarnings(decoded.flatMap(\.dates), schema))
    }

    /// Applies an `update` or `end` to `activity`, or says why the phone does not.
    func apply(to activity: inout LiveActivity, priority: Int, types: [String: ActivitySchema]) -> DeviceOutcome {
        guard activity.state(at: now, lifetimes: settings.lifetimes).isRunning else {
            if let swiped = activity.dismissedAt, swiped <= now {
                return DeviceOutcome(.ignored, rule: .activityAfterEnd, reason: "dismissed by the person")
            }
            return DeviceOutcome(.ignored, rule: .activityAfterEnd, reason: "activity ended")
        }
        guard let timestamp else {
            return DeviceOutcome(.dropped, rule: .activityNotDecodable, reason: "aps.timestamp is missing")
        }
        let schema = types[activity.attributesType]
        if event == "start" {
            return DeviceOutcome(
                .dropped, rule: .activityNotDecodable,
                reason: "a start goes to a push-to-start token, not an update token")
        }
        if event == "end" { return end(&activity, timestamp: timestamp, schema: schema) }
        if timestamp < activity.timestamp {
            return DeviceOutcome(
                .ignored, rule: .activityOlderTimestamp,
                reason: "timestamp \(Self.text(timestamp)) is older than the last applied "
                    + Self.text(activity.timestamp))
        }
        if let limit = settings.oldTimestampLimit, now.timeIntervalSince1970 - timestamp > limit {
            return DeviceOutcome(
                .ignored, rule: .activityOldTimestamp,
                reason: "timestamp \(Self.text(timestamp)) is more than \(ActivityDateWarning.spanText(limit)) "
                    + "behind the clock (liveActivity.oldTimestampLimit)")
        }
        guard let contentState = aps["content-state"] else {
            return DeviceOutcome(.dropped, rule: .activityNotDecodable, reason: "aps.content-state is missing")
        }
        let decoded = schema?.decodeContentState(contentState)
        if let error = decoded?.error {
            return DeviceOutcome(.dropped, rule: .activityNotDecodable, reason: error.description)
        }
        if let problem = ActivitySize.problem(attributes: activity.attributes, contentState: contentState) {
            return DeviceOutcome(.dropped, rule: .activityTooLarge, reason: problem)
        }
        if priority == 10, let limit = settings.priority10UpdatesPerHour {
            let since = now.addingTimeInterval(-3600)
            // Counted in place: a broadcast runs this for every subscriber, and a filtered copy would be an
            // allocation per subscriber per broadcast.
            let spent = activity.priority10Applied.reduce(0) { $0 + ($1 > since ? 1 : 0) }
            if spent >= limit {
                return DeviceOutcome(
                    .throttled, rule: .activityUpdateBudget,
                    reason: "priority-10 budget spent: \(spent) updates in the last hour "
                        + "(liveActivity.priority10UpdatesPerHour)")
            }
        }
        var notes = [String]()
        if timestamp == activity.timestamp {
            notes.append("timestamp equals the last applied one: applied, as it is not older")
        }
        activity.contentState = contentState
        activity.timestamp = timestamp
        activity.updatedAt = now
        activity.staleDate = staleDate
        if let score = aps["relevance-score"]?.doubleValue { activity.relevanceScore = score }
        let warnings = schema.map { dateWarnings(decoded?.dates ?? [], $0) } ?? []
        return DeviceOutcome(.applied, rule: .activityApplied, warnings: warnings, notes: notes)
    }

    /// Ends `activity`, even for an older timestamp (seen); a final content-state that does not decode leaves the
    /// last applied one (open) and says so.
    private func end(_ activity: inout LiveActivity, timestamp: Double, schema: ActivitySchema?) -> DeviceOutcome {
        var notes = [String]()
        var warnings = [String]()
        if timestamp < activity.timestamp {
            notes.append("timestamp older than the last applied one: an end applies anyway")
        }
        if let contentState = aps["content-state"] {
            let decoded = schema?.decodeContentState(contentState)
            if let error = decoded?.error {
                notes.append("final content-state does not decode (\(error)): the last applied state stays")
            } else {
                activity.contentState = contentState
                if let schema { warnings = dateWarnings(decoded?.dates ?? [], schema) }
            }
        }
        activity.timestamp = max(activity.timestamp, timestamp)
        activity.updatedAt = now
        activity.endedAt = now
        activity.dismissalDate = aps["dismissal-date"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
        return DeviceOutcome(.ended, rule: .activityEnded, warnings: warnings, notes: notes)
    }

    /// The date-sanity warnings for `dates` decoded as `schema`'s.
    func dateWarnings(_ dates: [ActivityDecodedDate], _ schema: ActivitySchema) -> [String] {
        ActivityDateWarning.warnings(
            for: dates, dateDecoding: schema.dateDecoding, now: now, threshold: settings.dateWarningThreshold)
    }

    /// A timestamp as the push wrote it, whole seconds without a fraction.
    static func text(_ seconds: Double) -> String {
        seconds.rounded() == seconds && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
