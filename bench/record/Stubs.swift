// Stand-ins for what the record's sources name but the bench does not build (bench/record/run.sh).

/// Where a push's entry sits in its activity's history (Sources/MockAPNs/Devices/ActivityHistoryEntry.swift).
struct ActivityHistoryEntry: Sendable, Hashable {
    var activityID: String
    var index: Int
}

/// A scripted fault (Sources/MockAPNs/Scenarios/ScriptedRule.swift, whose rules need the scenario types).
public enum RuleFault: String, Sendable, Hashable, CaseIterable {
    case noResponse = "no-response"
    case resetStream = "reset-stream"
    case goaway
    case closeConnection = "close-connection"
}
