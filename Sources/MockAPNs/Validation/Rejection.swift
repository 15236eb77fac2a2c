import Foundation

/// A failed check inside the validator: the reason to answer and the rule that found it.
///
/// A hot-path type (bench/README.md, "twelfth session"): its optional properties are spelled `Optional<…>`, never
/// `T?`. A `T?` property starts as an implicit `nil`, so the initializer assigned over it, and Swift then built the
/// value aside and copied it out: a retain and a release for each reference it holds, on every rejected push.
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
