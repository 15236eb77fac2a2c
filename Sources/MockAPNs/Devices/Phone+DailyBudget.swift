import Foundation

extension Phone {
    /// A budget that counts an app's pushes of some types over a rolling 24 hours (phone.md §4): complication
    /// pushes (`complicationPerDay`, doc: 50 a day), widget and control pushes together (`widgetPushesPerDay`).
    struct DailyBudget: Sendable, Hashable {
        /// Which pushes it counts.
        enum Kind: Sendable, Hashable {
            /// Complication pushes.
            case complication
            /// Widget and control pushes.
            case widgets
        }

        /// Which pushes it counts.
        var kind: Kind
        /// The app it counts them for.
        var bundleID: String
    }

    /// The most apps a phone keeps daily budgets for; past it a push is not counted (with a note).
    static let dailyBudgetAppLimit = PhoneState.appLimit

    /// Spends one push of `budget`, which allows `limit` per rolling 24 hours, at `now`: forgets the pushes older
    /// than a day, then notes this one if there is room. Answers how many the day had counted before it and
    /// whether it was spent; `nil` when the phone keeps no more budgets (past `dailyBudgetAppLimit` apps).
    mutating func spendDaily(_ budget: DailyBudget, limit: Int, now: Date) -> (used: Int, spent: Bool)? {
        let since = now.addingTimeInterval(-SimulationSettings.dailyBudgetWindow)
        var times = dailyPushes[budget] ?? []
        if times.isEmpty, dailyPushes.count >= Self.dailyBudgetAppLimit { return nil }
        if let first = times.first, first <= since {
            times.removeFirst(times.firstIndex { $0 > since } ?? times.count)
        }
        let used = times.count
        let spent = used < limit
        if spent { times.append(now) }
        dailyPushes[budget] = times.isEmpty ? nil : times
        return (used, spent)
    }
}
