import MockAPNs
import MockAPNsClient

/// The pushes to push-to-start tokens that started nothing (the phone dropped or throttled them), which
/// `mock-apns activities` has no row for: counted from the journal, with the `requests` commands that list them.
struct DroppedStarts {
    /// One push-to-start token's starts that the phone refused in one way.
    struct Group: Hashable {
        var outcome: DeviceOutcome.Kind
        var token: String
        var count: Int
    }

    /// By outcome, then in the order the journal first has their token.
    var groups: [Group] = []

    /// The outcomes of a push to a push-to-start token that starts nothing.
    static let outcomes: [DeviceOutcome.Kind] = [.dropped, .throttled]

    /// Reads them from the journal of the mock `client` talks to; only those to `token` when given (an
    /// `activities --token`).
    ///
    /// A record whose device part names no activity went to a push-to-start token: a push to an update token always
    /// names the activity it reached, and starts that started name theirs.
    static func fetch(_ client: MockAPNsControlClient, token: String?) async throws -> DroppedStarts {
        var found = DroppedStarts()
        for outcome in outcomes {
            let records = try await client.records(JournalQuery(token: token, device: outcome))
            for record in records where record.device?.activityID == nil {
                guard let token = record.deviceToken?.lowercased() else { continue }
                if let index = found.groups.firstIndex(where: { $0.outcome == outcome && $0.token == token }) {
                    found.groups[index].count += 1
                } else {
                    found.groups.append(Group(outcome: outcome, token: token, count: 1))
                }
            }
        }
        return found
    }

    /// The footer: how many, then one `mock-apns requests` command per outcome and token (with `controlFlags`, the
    /// `--control-url`/`--control-token` the user gave); nothing when there are none.
    func footer(controlFlags: String) -> [String] {
        let total = groups.reduce(0) { $0 + $1.count }
        guard total > 0 else { return [] }
        let kinds = Self.outcomes.compactMap { outcome -> String? in
            let count = groups.filter { $0.outcome == outcome }.reduce(0) { $0 + $1.count }
            return count == 0 ? nil : "\(outcome.rawValue) \(count)"
        }
        let starts = total == 1 ? "1 push to a push-to-start token" : "\(total) pushes to push-to-start tokens"
        var lines = ["\(starts) started nothing (\(kinds.joined(separator: ", "))), so no row above; see why with:"]
        for group in groups {
            lines.append(
                "  mock-apns requests --device \(group.outcome.rawValue) --token \(group.token)\(controlFlags)")
        }
        return lines
    }
}
