extension IssuedTokenCondition {
    /// For each push-to-start token (lowercase), the update tokens its `start` pushes issued, in record order.
    public static func issued(in records: [JournalRecord]) -> [String: [String]] {
        var issued: [String: [String]] = [:]
        for record in records {
            guard let device = record.device, device.kind == .started, let token = device.updateToken,
                let pushToStart = record.deviceToken
            else { continue }
            issued[pushToStart.lowercased(), default: []].append(token.lowercased())
        }
        return issued
    }

    /// The condition with the tokens it names among `issued` (from `issued(in:)`).
    func resolved(_ issued: [String: [String]]) -> IssuedTokenCondition {
        var resolved = self
        let all = issued[pushToStartToken] ?? []
        if let start {
            resolved.tokens = start >= 1 && start <= all.count ? [all[start - 1]] : []
        } else {
            resolved.tokens = Set(all)
        }
        return resolved
    }

    /// `the update token of start 2 from db25ba…ee3683`, `an update token issued from db25ba…ee3683`.
    var text: String {
        let from = JournalRecord.shortToken(pushToStartToken)
        return start.map { "the update token of start \($0) from \(from)" } ?? "an update token issued from \(from)"
    }
}

extension RuleMatch {
    /// The match with its `issuedFrom` condition, if any, naming the tokens issued in the run (`issued(in:)`).
    func resolvingIssuedTokens(_ issued: [String: [String]]) -> RuleMatch {
        guard let issuedToken else { return self }
        var resolved = self
        resolved.issuedToken = issuedToken.resolved(issued)
        return resolved
    }
}

extension ScenarioExpectation {
    /// The expectation with the `issuedFrom` conditions of its match and steps naming the tokens issued in the run.
    func resolvingIssuedTokens(_ issued: [String: [String]]) -> ScenarioExpectation {
        var resolved = self
        resolved.match = match.resolvingIssuedTokens(issued)
        resolved.sequence = sequence.map { $0.resolvingIssuedTokens(issued) }
        return resolved
    }
}
