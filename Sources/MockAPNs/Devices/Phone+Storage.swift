import Foundation

extension Phone {
    /// Settles APNs's storage for the phone at `now` (phone.md §1 steps 3–5): each stored push whose expiration has
    /// passed gets `expired` at that moment; if the phone can take it (online, and out of Low Power Mode for a
    /// push `powerStorage` keeps), each other one gets `delivered` and then the phone's walk (steps 1–2 again, then
    /// the device stage) as a late delivery, whose outcome the event carries. Answers the events in order: the
    /// oldest stored push first. `settle(now:setup:)` calls it.
    mutating func settleStorage(now: Date, setup: PhoneSetup) -> [DeviceEvent] {
        guard !stored.isEmpty else { return [] }
        var events: [DeviceEvent] = []
        for push in stored.values.sorted(by: { ($0.storedAt, $0.slot) < ($1.storedAt, $1.slot) }) {
            if now >= push.expiresAt {
                stored[push.slot] = nil
                let reason =
                    push.zeroExpiration
                    ? "apns-expiration was 0 and phone \(id) stayed offline past expirationZeroGrace: dropped"
                    : "expired in storage at \(Timestamp.text(push.expiresAt)) while phone \(id) was offline"
                let rule: DeviceRule = push.zeroExpiration ? .expirationZeroOffline : .storageExpired
                events.append(
                    DeviceEvent(push.number, at: push.expiresAt, DeviceOutcome(.expired, rule: rule, reason: reason)))
                continue
            }
            guard state.online else { continue }
            let priority = push.request.fields.priority.flatMap { Int($0) } ?? 10
            let power = setup.settings.storesForPower(priority: priority, zeroExpiration: push.zeroExpiration)
            if power && state.lowPowerMode { continue }
            stored[push.slot] = nil
            let rule: DeviceRule = push.zeroExpiration ? .expirationZeroLate : .storageDelivered
            let reason =
                push.zeroExpiration
                ? "phone \(id) came back within expirationZeroGrace: APNs delivered the apns-expiration 0 push late"
                : push.power
                    ? "phone \(id) is out of Low Power Mode: APNs delivered the push it stored for power "
                        + "(powerStorage: lowPriority)"
                    : "phone \(id) came back online: APNs delivered the push from storage"
            var delivered = DeviceEvent(push.number, at: now, DeviceOutcome(.delivered, rule: rule, reason: reason))
            var walk = PhoneWalk(
                request: push.request, facts: PushFacts(try? JSONParser.parse(push.request.body)),
                pushType: push.pushType, bundleID: push.bundleID, token: push.token,
                app: setup.appCode(push.bundleID), settings: setup.settings, now: now,
                loadedAt: setup.loadedAt)
            walk.number = push.number
            walk.late =
                push.zeroExpiration
                ? "it was delivered late, within expirationZeroGrace" : "it was delivered late, from storage"
            delivered.device = walk.run(on: &self)
            events.append(delivered)
            events += walk.events
        }
        return events
    }

    /// The pushes stored for the app `bundleID`, oldest first.
    func stored(for bundleID: String) -> [StoredPush] {
        stored.values.filter { $0.bundleID == bundleID }.sorted { ($0.storedAt, $0.slot) < ($1.storedAt, $1.slot) }
    }
}
