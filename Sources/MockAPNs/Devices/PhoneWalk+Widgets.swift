import Foundation

extension PhoneWalk {
    /// The widgets and controls walk (phone.md §4, "The others"): the daily budget the two share
    /// (`widgetPushesPerDay`; Apple "budgets" them and names no number, so none by default) → the reload:
    /// `reloadAllTimelines()` for widgets, each control with a push handler for controls (iOS 18).
    mutating func widgets(on phone: inout Phone) -> DeviceOutcome {
        let isControls = pushType == .controls
        if !Self.contentChanged(facts.payload) {
            notes.append(
                "aps.content-changed is not true: Apple's pages send {\"aps\":{\"content-changed\":true}} for a "
                    + "\(pushType.name) push; the reload is simulated anyway")
        }
        if let limit = settings.widgetPushesPerDay {
            changed = true
            let budget = Phone.DailyBudget(kind: .widgets, bundleID: bundleID)
            if let spending = phone.spendDaily(budget, limit: limit, now: now) {
                if !spending.spent {
                    return decided(
                        .throttled, .widgetBudget,
                        "\(bundleID) already had \(spending.used) widget and control pushes within 24h "
                            + "(widgetPushesPerDay \(limit)): this one is not delivered")
                }
            } else {
                notes.append(
                    "the phone keeps budgets for \(Phone.dailyBudgetAppLimit) apps at most: this push is not counted")
            }
        }
        if isControls {
            return decided(
                .applied, .controlsReload,
                "the controls of \(bundleID) with a push handler reload (ControlPushHandler)")
        }
        return decided(
            .applied, .widgetReload, "the widgets of \(bundleID) reload their timelines (reloadAllTimelines())")
    }

    /// Whether `aps.content-changed` is `true`.
    private static func contentChanged(_ payload: JSONValue?) -> Bool {
        guard case .object(let members)? = payload, case .object(let aps)? = members.last(where: { $0.0 == "aps" })?.1
        else { return false }
        guard case .bool(let changed)? = aps.last(where: { $0.0 == "content-changed" })?.1 else { return false }
        return changed
    }
}
