import Foundation

/// A failed check inside the validator: the reason to answer and the rule that found it.
///
/// Made for every rejected push: its optional properties are spelled `Optional<…>`, never `T?`, whose implicit `nil` made
/// Swift build the value aside and copy it out (`HotPathOptionalsTests` says why).
struct Rejection: Error {
    var reason: APNsReason
    var rule: String
    var explanation: String
    var timestamp: Optional<Date>

    init(_ reason: APNsReason, rule: String, _ explanation: String, timestamp: Date? = nil) {
        self.reason = reason
        self.rule = rule
        self.explanation = explanation
        self.timestamp = timestamp
    }
}
