import Foundation

extension LiveActivitySettings {
    /// The settings as a scenario file's `liveActivity:` section: only those that differ from the defaults, in the
    /// order of the scenario documentation (an empty mapping for the defaults). Loading it gives these settings back.
    public var scenarioJSON: JSONValue {
        let defaults = LiveActivitySettings()
        var members: [(String, JSONValue)] = []
        func duration(_ name: String, _ value: TimeInterval, _ standard: TimeInterval) {
            if value != standard { members.append((name, .string(ScenarioLoader.Reader.durationText(value)))) }
        }
        func durationOrOff(_ name: String, _ value: TimeInterval?, _ standard: TimeInterval?) {
            if value != standard {
                members.append((name, value.map { .string(ScenarioLoader.Reader.durationText($0)) } ?? "off"))
            }
        }
        func budget(_ name: String, _ value: Int?, _ standard: Int?) {
            if value != standard { members.append((name, value.map { .number(String($0)) } ?? "unlimited")) }
        }
        func flag(_ name: String, _ value: Bool, _ standard: Bool) {
            if value != standard { members.append((name, .bool(value))) }
        }
        duration("maxActive", lifetimes.maxActive, defaults.lifetimes.maxActive)
        duration("maxVisible", lifetimes.maxVisible, defaults.lifetimes.maxVisible)
        duration("defaultDismissal", lifetimes.defaultDismissal, defaults.lifetimes.defaultDismissal)
        flag("tokenWithoutInputPushToken", tokenWithoutInputPushToken, defaults.tokenWithoutInputPushToken)
        flag("startNeedsAlert", startNeedsAlert, defaults.startNeedsAlert)
        durationOrOff("futureTimestampLimit", futureTimestampLimit, defaults.futureTimestampLimit)
        durationOrOff("oldTimestampLimit", oldTimestampLimit, defaults.oldTimestampLimit)
        duration("dateWarningThreshold", dateWarningThreshold, defaults.dateWarningThreshold)
        budget("priority10UpdatesPerHour", priority10UpdatesPerHour, defaults.priority10UpdatesPerHour)
        budget("startsPerWindow", startsPerWindow, defaults.startsPerWindow)
        duration("startWindow", startWindow, defaults.startWindow)
        durationOrOff("endedTokenUnregistered", endedTokenUnregistered, defaults.endedTokenUnregistered)
        return .object(members)
    }
}
