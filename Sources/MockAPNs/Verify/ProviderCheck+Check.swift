import Foundation

extension ProviderCheck {
    /// The check run over a run's records (oldest first): passed, or failed naming each record that broke it.
    func check(_ records: [JournalRecord], scenario: Scenario) -> VerifyReport.Item {
        switch kind {
        case .stopsAfterUnregistered: stopsAfterUnregistered(records)
        case .noRetryOnPermanentErrors: noRetryOnPermanentErrors(records)
        case .backsOff: backsOff(records)
        case .reusesConnections: reusesConnections(records)
        case .tokenRefresh: tokenRefresh(records)
        case .noUnexpectedErrors: noUnexpectedErrors(records, expectations: scenario.expectations)
        }
    }

    /// A record that broke a check, and why, in words that follow its summary line.
    struct Breach {
        var record: JournalRecord
        var why: String
    }

    /// The check's item: passed when nothing broke it. `lookedAt` says what was checked (`14 pushes, 1
    /// connection`); a failure's details name each record that broke it (its summary line) and why.
    func item(_ breaches: [Breach], lookedAt: String) -> VerifyReport.Item {
        guard !breaches.isEmpty else {
            return VerifyReport.Item(kind: .check, name: kind.rawValue, passed: true, summary: "ok: \(lookedAt)")
        }
        return VerifyReport.Item(
            kind: .check, name: kind.rawValue, passed: false,
            summary: "\(Self.counted(breaches.count, "record")) broke it (\(lookedAt))",
            details: breaches.map { "\($0.record.summaryLine): \($0.why)" },
            records: breaches.map(\.record.sequence))
    }

    /// `1 push`, `14 pushes`: a count and its noun, with an `s` (or `plural`) unless the count is 1.
    static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// `1.5s`, `250ms`: how long after `start` the time `end` is, for messages. Times read back from a journal file
    /// can be decades apart (an `iat` of Int64.min): beyond what a `Duration` holds, whole seconds.
    static func elapsed(from start: Date, to end: Date) -> String {
        let seconds = end.timeIntervalSince(start)
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return String(format: "%.0fs", seconds) }
        return DurationText.text(.milliseconds(Int64(milliseconds)))
    }
}

extension JournalRecord {
    /// The device token as the world keys devices (lower-case hex), or as sent when it is not hex; `nil` when the
    /// path has none. Tokens that differ only in case are the same device.
    var deviceKey: String? {
        deviceToken.map { DeviceToken($0)?.hex ?? $0 }
    }

    /// Whether the request was received after `earlier` was answered: a request already in flight when the
    /// answer went out cannot have been a reaction to it. A record with no answer never counts as answered.
    func arrived(after earlier: JournalRecord) -> Bool {
        guard let answeredAt = earlier.answeredAt else { return false }
        return receivedAt > answeredAt
    }
}
