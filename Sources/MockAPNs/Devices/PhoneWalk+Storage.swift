import Foundation

extension PhoneWalk {
    /// §1 step 1: the app is not installed. APNs discards the push and answers 200; from `unregisteredAfter` after
    /// the first push that reached the phone without the app, the token is out of use and APNs answers 410 with that
    /// first push's time (`unregisteredSince`).
    mutating func uninstalled(on phone: inout Phone) -> DeviceOutcome {
        // The first push after the deletion reaches the phone and gets its 200 whatever the delay: from then on
        // the token is out of use.
        let first = phone.uninstalledReached[bundleID]
        if first == nil {
            phone.uninstalledReached[bundleID] = now
            changed = true
        }
        let since = first ?? now
        guard let after = settings.unregisteredAfter else {
            notes.append("open: unregisteredAfter = never")
            return decided(
                .discarded, .appUninstalled,
                "\(bundleID) is not installed on phone \(phone.id): APNs discards the push and still answers 200 "
                    + "(unregisteredAfter: never)")
        }
        let turns = since.addingTimeInterval(after)
        if first != nil, now >= turns {
            unregisteredSince = since
            return decided(
                .discarded, .appUninstalled,
                "\(bundleID) is not installed on phone \(phone.id): the token is out of use since "
                    + "\(Timestamp.text(since)); APNs answers 410 Unregistered")
        }
        return decided(
            .discarded, .appUninstalled,
            "\(bundleID) is not installed on phone \(phone.id): APNs discards the push and still answers 200 until "
                + "\(Timestamp.text(turns)) (unregisteredAfter after the first push since the deletion), then 410 "
                + "Unregistered")
    }

    /// §1 steps 3 to 5: the phone is offline, or (`power`) in Low Power Mode under `powerStorage: lowPriority`. APNs
    /// stores the push in its slot (one per token and topic, or per topic under `storageSlot: app`);
    /// `storageKeeps` decides which of two survives, and the other gets the event `replaced`. A push with
    /// `apns-expiration: 0` waits only `expirationZeroGrace`; one whose expiration has passed is not stored.
    mutating func store(on phone: inout Phone, power: Bool = false) -> DeviceOutcome {
        let topic = request.fields.topic ?? bundleID
        let slot = settings.storageSlot == .token ? "\(token) \(topic)" : topic
        let zero = request.fields.expiration == "0"
        let grace = settings.expirationZeroGrace
        if zero, grace <= 0 {
            return decided(
                .expired, .expirationZeroOffline,
                "phone \(phone.id) is offline and apns-expiration is 0 (expirationZeroGrace 0s): APNs tries once "
                    + "and drops the push")
        }
        let expiresAt: Date
        if zero {
            expiresAt = now.addingTimeInterval(grace)
        } else if let header = request.fields.expiration.flatMap({ Int64($0) }) {
            let cap = now.addingTimeInterval(SimulationSettings.storageCap)
            expiresAt = min(Date(timeIntervalSince1970: TimeInterval(header)), cap)
            if expiresAt <= now {
                return decided(
                    .expired, .storageExpired,
                    "phone \(phone.id) is offline and apns-expiration \(header) has passed: APNs does not store the "
                        + "push")
            }
        } else {
            expiresAt = now.addingTimeInterval(settings.storageWithoutExpiration)
        }
        changed = true
        let number = pushNumber()
        let new = StoredPush(
            number: number, request: request, pushType: pushType, bundleID: bundleID, token: token, storedAt: now,
            expiresAt: expiresAt, zeroExpiration: zero, power: power, slot: slot)
        if let old = phone.stored[slot] {
            let collapseID = request.fields.collapseID
            let sameCollapse = collapseID != nil && old.request.fields.collapseID == collapseID
            if settings.storageKeeps == .newest || sameCollapse {
                phone.stored[slot] = new
                let why =
                    sameCollapse
                    ? "a newer push with the same apns-collapse-id \(collapseID ?? "") replaced it in storage"
                    : "a newer push for the same slot (\(slot)) was stored instead (storageKeeps: newest)"
                events.append(
                    DeviceEvent(
                        old.number, at: now,
                        DeviceOutcome(
                            .replaced, rule: sameCollapse ? .collapseReplaced : .storageReplaced, reason: why),
                        related: number))
            } else {
                notes.append("open: storageKeeps = oldest")
                events.append(
                    DeviceEvent(
                        number, at: now,
                        DeviceOutcome(
                            .replaced, rule: .storageReplaced,
                            reason: "the slot (\(slot)) keeps the push stored first (storageKeeps: oldest)"),
                        related: old.number))
            }
        } else {
            evictOldestStored(on: &phone, for: number)
            phone.stored[slot] = new
        }
        if zero {
            return decided(
                .stored, .expirationZeroRetry,
                "phone \(phone.id) is offline and apns-expiration is 0: APNs tries once more within "
                    + "expirationZeroGrace (\(ScenarioLoader.Reader.durationText(grace))), then drops it")
        }
        if power {
            notes.append("open: powerStorage = lowPriority")
            return decided(
                .stored, .storedPower,
                "phone \(phone.id) is in Low Power Mode and the push has apns-priority \(priority): APNs stores it "
                    + "(Stored – Power Considerations) until Low Power Mode ends, at most until "
                    + Timestamp.text(expiresAt))
        }
        return decided(
            .stored, .storedOffline,
            "phone \(phone.id) is offline: APNs stores the push (one per \(settings.storageSlot.rawValue) and "
                + "topic) until \(Timestamp.text(expiresAt)) or until the phone comes back")
    }

    /// Makes room for one more slot on a phone that stores `Phone.storedSlotLimit` already (only lenient mode's
    /// endless topics reach it): the oldest stored push is dropped, with the event `replaced` naming the limit.
    private mutating func evictOldestStored(on phone: inout Phone, for number: PushNumber) {
        evictOldest(
            from: &phone.stored, since: \.storedAt, number: \.number, rule: .storageReplaced, for: number,
            "phone \(phone.id) already stored \(Phone.storedSlotLimit) pushes")
    }

    /// Drops the oldest entry of `entries` (by `since`) when it holds `Phone.storedSlotLimit` already, with the event
    /// `replaced` (`rule`, "`what` (the mock's limit per phone): the oldest was dropped for a newer one") for its
    /// push, related to `number`: one phone cannot make the mock keep pushes without bound.
    mutating func evictOldest<Entry>(
        from entries: inout [String: Entry], since: KeyPath<Entry, Date>, number: KeyPath<Entry, PushNumber>,
        rule: DeviceRule, for newer: PushNumber, _ what: String
    ) {
        guard entries.count >= Phone.storedSlotLimit,
            let oldest = entries.min(by: { $0.value[keyPath: since] < $1.value[keyPath: since] })
        else { return }
        entries[oldest.key] = nil
        events.append(
            DeviceEvent(
                oldest.value[keyPath: number], at: now,
                DeviceOutcome(
                    .replaced, rule: rule,
                    reason: what + " (the mock's limit per phone): the oldest was dropped for a newer one"),
                related: newer))
    }
}
