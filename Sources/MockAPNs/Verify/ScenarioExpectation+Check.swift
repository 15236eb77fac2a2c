import Foundation

extension ScenarioExpectation {
    /// How many records a failure lists at most.
    static let listedLimit = 10

    /// The expectation checked against a run's records, oldest first: `within` counts from `startedAt`.
    func check(_ records: [JournalRecord], startedAt: Date) -> VerifyReport.Item {
        let deadline = within.map { startedAt.addingTimeInterval(DurationText.seconds($0)) }
        return check(records, deadline: deadline)
    }

    /// The one checker of expectations on records: `count`, `answered`, `within` and order, and the nearest miss
    /// field by field. `mock-apns run`, `POST /v1/verify` and `expectPush` (`PushExpectation`) all report through
    /// it, so a miss reads the same from each.
    ///
    /// - Parameters:
    ///   - records: the records to check, oldest first.
    ///   - deadline: records received after it do not count (`within`); `nil` when the caller waited `within`
    ///     itself and passes only what arrived in time.
    ///   - condition: a further test on each record besides `match` (`expectPush`'s `where:`).
    func check(
        _ records: [JournalRecord], deadline: Date?, where condition: (@Sendable (JournalRecord) -> Bool)? = nil
    ) -> VerifyReport.Item {
        // `device:` sees what happened to a push after its answer, too (phone.md §5, "Events").
        let records = records.joiningDeviceEvents()
        return sequence.isEmpty
            ? checkMatch(records, deadline: deadline, condition: condition)
            : checkSequence(records, deadline: deadline)
    }

    /// `count`, `answered` and `within` of a plain `match`.
    private func checkMatch(
        _ records: [JournalRecord], deadline: Date?, condition: (@Sendable (JournalRecord) -> Bool)?
    ) -> VerifyReport.Item {
        var counted: [JournalRecord] = []
        var late: [JournalRecord] = []
        var unconditioned: [JournalRecord] = []
        for record in records {
            var payload: JSONValue??
            guard match.matches(record, payload: &payload) else { continue }
            if let condition, !condition(record) {
                unconditioned.append(record)
            } else if let deadline, record.receivedAt > deadline {
                late.append(record)
            } else {
                counted.append(record)
            }
        }
        let answerQuery = answered.map { JournalQuery(status: $0.status, reason: $0.reason) }
        let wrongAnswers = answerQuery.map { query in counted.filter { !query.matches($0) } } ?? []
        let passed = count.contains(counted.count) && wrongAnswers.isEmpty
        let summary: String
        if !count.contains(counted.count) {
            summary = "got \(counted.count), expected \(Self.countText(count))"
        } else if let answered, !wrongAnswers.isEmpty {
            summary = "\(wrongAnswers.count) of \(Self.pushes(counted.count)) answered otherwise than \(answered.text)"
        } else {
            summary = Self.pushes(counted.count)
        }
        guard !passed else {
            return VerifyReport.Item(
                kind: .expectation, name: name, passed: true, summary: summary, records: counted.map(\.sequence))
        }
        var details = [
            "expected \(Self.countText(count)) \(match.requestText)\(conditionsText(condition != nil)); "
                + "got \(counted.count)."
        ]
        if !unconditioned.isEmpty {
            details.append(
                "\(unconditioned.count) matched the filters but not the where: condition: "
                    + Self.list(unconditioned, \.located))
        }
        if counted.count < count.lowerBound {
            let nearest = Miss.nearest(to: match, where: condition, in: records)
            details.append(nearest.map { "Nearest: \($0)" } ?? "Nearest: none (no other request)")
        }
        if !late.isEmpty, let within {
            details.append(
                "\(late.count) more arrived after the \(DurationText.text(within)) window and do not count: "
                    + Self.list(late, \.located))
        }
        if counted.count > count.upperBound {
            details.append("matched: " + Self.list(counted, \.located))
        }
        if let answered, !wrongAnswers.isEmpty {
            details += wrongAnswers.prefix(Self.listedLimit).map { record in
                "\(record.located) was answered \(record.outcomeText), expected \(answered.text)"
            }
        }
        return VerifyReport.Item(
            kind: .expectation, name: name, passed: false, summary: summary, details: details,
            records: counted.map(\.sequence))
    }

    /// `sequence`: the steps in order, as a subsequence of the records.
    private func checkSequence(_ records: [JournalRecord], deadline: Date?) -> VerifyReport.Item {
        var matched: [JournalRecord] = []
        var late: JournalRecord?
        for record in records where matched.count < sequence.count {
            var payload: JSONValue??
            guard sequence[matched.count].matches(record, payload: &payload) else { continue }
            if let deadline, record.receivedAt > deadline {
                late = record
                break
            }
            matched.append(record)
        }
        let steps = sequence.count
        guard matched.count < steps else {
            return VerifyReport.Item(
                kind: .expectation, name: name, passed: true, summary: "\(steps) steps in order",
                records: matched.map(\.sequence))
        }
        let missing = matched.count
        var details = [
            "expected \(steps) requests in this order, interleaved with anything else\(conditionsText(false)):"
        ]
        for (index, step) in sequence.enumerated() {
            let found = index < matched.count ? matched[index].located : "missing"
            details.append("  \(index + 1). \(step.text) — \(found)")
        }
        let step = sequence[missing]
        let after = matched.last?.sequence ?? 0
        if let late, let within {
            details.append(
                "step \(missing + 1) came as \(late.located), after the \(DurationText.text(within)) window")
        } else if missing > 0, let early = records.first(where: { record in
            var payload: JSONValue??
            return record.sequence < after && step.matches(record, payload: &payload)
        }) {
            details.append(
                "step \(missing + 1) came as \(early.located), before step \(missing)'s #\(after) (out of order)")
        }
        if late == nil, let nearest = Miss.nearest(to: step, in: records.filter { $0.sequence > after }) {
            details.append("Nearest for step \(missing + 1): \(nearest)")
        }
        return VerifyReport.Item(
            kind: .expectation, name: name, passed: false, summary: "\(missing) of \(steps) steps in order",
            details: details, records: matched.map(\.sequence))
    }

    /// The `unexpected: fail` item: it fails with every record that no expectation's match or step matches.
    static func unexpectedItem(_ records: [JournalRecord], expectations: [ScenarioExpectation]) -> VerifyReport.Item {
        let unmatched = records.filter { !anyNames($0, in: expectations) }
        guard !unmatched.isEmpty else {
            return VerifyReport.Item(
                kind: .unexpected, name: "unexpected requests", passed: true, summary: "every request was expected")
        }
        var details = unmatched.prefix(listedLimit).map(\.summaryLine)
        if unmatched.count > listedLimit { details.append("… and \(unmatched.count - listedLimit) more") }
        return VerifyReport.Item(
            kind: .unexpected, name: "unexpected requests", passed: false,
            summary: "\(unmatched.count) request\(unmatched.count == 1 ? "" : "s") no expectation matches",
            details: details, records: unmatched.map(\.sequence))
    }

    /// `, answered 200, phone applied, within 5s`: the conditions besides the request's fields, for the first
    /// line of a failure (a sequence's steps name their own device conditions); `whereCondition` adds
    /// `expectPush`'s predicate.
    private func conditionsText(_ whereCondition: Bool) -> String {
        var text = answered.map { ", answered \($0.text)" } ?? ""
        if sequence.isEmpty, let device = match.device { text += ", \(device.text)" }
        if whereCondition { text += ", passing the where: condition" }
        if let within { text += ", within \(DurationText.text(within))" }
        return text
    }

    /// `1 push`, `no push`, `at least 1 push`, `at most 3 pushes`, `1 to 3 pushes`.
    static func countText(_ count: ClosedRange<Int>) -> String {
        switch (count.lowerBound, count.upperBound) {
        case (0, 0): "no push"
        case (let low, Int.max): "at least \(pushes(low))"
        case (0, let high): "at most \(pushes(high))"
        case (let low, let high) where low == high: pushes(low)
        case (let low, let high): "\(low) to \(pushes(high))"
        }
    }

    /// `1 push`, `2 pushes`.
    static func pushes(_ number: Int) -> String { "\(number) push\(number == 1 ? "" : "es")" }

    /// `#3 at 12:00:01.204, #4 at …`, at most `listedLimit` of them.
    private static func list(_ records: [JournalRecord], _ text: (JournalRecord) -> String) -> String {
        var shown = records.prefix(listedLimit).map(text).joined(separator: ", ")
        if records.count > listedLimit { shown += " and \(records.count - listedLimit) more" }
        return shown
    }

    /// A record that failed a match, and how: each field it failed with what was asked and what it had.
    struct Miss: CustomStringConvertible {
        /// The record that missed.
        var record: JournalRecord
        /// Each field it failed, in the order the matcher tests them.
        var differences: [NearMiss.Difference]

        /// The record of `records` failing the fewest fields of `match` and `condition` (the oldest of equals);
        /// `nil` when every record matches or there is none.
        static func nearest(
            to match: RuleMatch, where condition: (@Sendable (JournalRecord) -> Bool)? = nil,
            in records: [JournalRecord]
        ) -> Miss? {
            var nearest: Miss?
            for record in records {
                var payload: JSONValue??
                var differences = match.mismatches(record, payload: &payload).map { field in
                    NearMiss.Difference(
                        field: field.name, expected: match.expectedText(field),
                        actual: RuleMatch.actualText(field, record, payload: payload, device: match.device))
                }
                if let condition, !condition(record) {
                    differences.append(
                        NearMiss.Difference(field: "the where: condition", expected: "true", actual: "false"))
                }
                if !differences.isEmpty, differences.count < nearest?.differences.count ?? Int.max {
                    nearest = Miss(record: record, differences: differences)
                }
            }
            return nearest
        }

        /// `#3 at 12:00:01.204 — aps.alert.title was "Order Ready" (expected "Order ready")`.
        var description: String {
            "\(record.located) — " + differences.map(\.text).joined(separator: "; ")
        }
    }
}

extension ScenarioExpectation.AnswerCondition {
    /// `200`, `Unregistered`, or `410 Unregistered`.
    var text: String { [status.map(String.init), reason].compactMap { $0 }.joined(separator: " ") }
}

extension JournalRecord {
    /// `#3 at 12:00:01.204`: the record's number and the time it arrived, for messages about one run.
    var located: String { "#\(sequence) at \(Timestamp.timeOfDay(receivedAt))" }
}
