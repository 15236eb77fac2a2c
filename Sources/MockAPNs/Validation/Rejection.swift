import Foundation

/// A failed check inside the validator: the reason to answer and the rule that found it.
struct Rejection: Error {
    var reason: APNsReason
    var rule: String
    var explanation: String
    var timestamp: Date?

    init(_ reason: APNsReason, rule: String, _ explanation: String, timestamp: Date? = nil) {
        self.reason = reason
        self.rule = rule
        self.explanation = explanation
        self.timestamp = timestamp
    }
}
