import Foundation

extension PhoneWalk {
    /// The complication walk (phone.md §4, "The others"; watchOS): on the watch face → the daily budget
    /// (`complicationPerDay`, 50 by default, a rolling 24 hours) → delivered to the app.
    mutating func complication(on phone: inout Phone) -> DeviceOutcome {
        guard phone.state.app(bundleID).complicationOnFace else {
            return decided(
                .dropped, .complicationNotOnFace,
                "\(bundleID)'s complication is not on the active watch face (complicationOnFace: false): "
                    + "complication pushes are not delivered")
        }
        if let limit = settings.complicationPerDay {
            changed = true
            let budget = Phone.DailyBudget(kind: .complication, bundleID: bundleID)
            guard let spending = phone.spendDaily(budget, limit: limit, now: now) else {
                notes.append(
                    "the phone keeps budgets for \(Phone.dailyBudgetAppLimit) apps at most: this push is not counted")
                return delivered()
            }
            if !spending.spent {
                return decided(
                    .throttled, .complicationBudget,
                    "\(bundleID) already had \(spending.used) complication pushes within 24h (complicationPerDay "
                        + "\(limit)): this one is not delivered")
            }
        }
        return delivered()
    }

    /// The complication push reached the app.
    private mutating func delivered() -> DeviceOutcome {
        return decided(
            .launched, .complicationDelivered,
            "\(bundleID)'s complication is on the watch face: the push wakes the app to update it")
    }
}
