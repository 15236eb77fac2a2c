import Foundation

/// The notification centres that `expect:` entries with `notificationCenter:` check, read from a run's records
/// alone (so `mock-apns verify --journal` gives the same verdict as the live mock): each phone's list as
/// `GET /v1/phones/{id}` gives it, after collapses and with the pushes delivered from storage.
///
/// The judging of one list (`item(_:count:name:on:)`) is public: the Swift helpers' `expectNotificationCenter`
/// applies it to the live phone, so that a test and a scenario fail alike.
public struct NotificationCenterCheck {
    /// The run's records of every kind, oldest first.
    let records: [JournalRecord]
    /// The scenario's world: its devices say which tokens share a phone; its phone setup what the apps do.
    let world: World

    /// The check over `records` under `world`.
    init(_ records: [JournalRecord], world: World) {
        self.records = records
        self.world = world
    }

    /// The item of `expectation`, whose `count` counts the notifications `condition` describes.
    func check(_ condition: NotificationCenterCondition, _ expectation: ScenarioExpectation) -> VerifyReport.Item {
        let (id, tokens) = phone(condition)
        let snapshot = PhoneSnapshot(
            phone: nil, id: id, declared: false, tokens: tokens.sorted(), records: arrivals(on: tokens),
            setup: world.phone, now: Date())
        return Self.item(condition, count: expectation.count, name: expectation.name, on: snapshot)
    }

    /// The item of an expectation named `name` that `count` of the notifications on `snapshot`'s list (of
    /// `condition.app`, or of every app) have every content field `condition` gives; its `records` are theirs, and
    /// a failure's details show the list as the person sees it, newest first.
    public static func item(
        _ condition: NotificationCenterCondition, count: ClosedRange<Int>, name: String, on snapshot: PhoneSnapshot
    ) -> VerifyReport.Item {
        let listed = snapshot.apps.filter { condition.app == nil || $0.bundleID == condition.app }
            .flatMap(\.notifications)
        let matching = listed.filter(condition.passes)
        let passed = count.contains(matching.count)
        let summary = "\(matching.count) notification\(matching.count == 1 ? "" : "s")"
        guard !passed else {
            return VerifyReport.Item(
                kind: .expectation, name: name, passed: true, summary: summary, records: matching.map(\.sequence))
        }
        let expected =
            count.lowerBound == count.upperBound
            ? "\(count.lowerBound)" : count.upperBound == .max ? "at least \(count.lowerBound)"
            : "\(count.lowerBound) to \(count.upperBound)"
        var details = ["expected \(expected) \(condition.text); got \(matching.count)."]
        let shown = listed.prefix(5).map { notification in
            let text = [notification.title, notification.subtitle, notification.body].compactMap { $0 }
                .joined(separator: " / ")
            let sender = notification.communicationSender.map { " from \($0)" } ?? ""
            return "#\(notification.sequence) \"\(text)\"" + sender
                + (notification.threadID.map { " (thread \($0))" } ?? "")
        }
        details.append(
            shown.isEmpty
                ? "The list is empty." : "The list, newest first: " + shown.joined(separator: ", ")
                    + (listed.count > 5 ? ", …" : "") + ".")
        return VerifyReport.Item(
            kind: .expectation, name: name, passed: false, summary: summary, details: details,
            records: matching.map(\.sequence))
    }

    /// The phone's id and its tokens: the devices that name the phone, or the token's phone's devices.
    private func phone(_ condition: NotificationCenterCondition) -> (String, Set<String>) {
        let id = condition.phone ?? condition.token.map { world.devices[$0]?.phone ?? $0 } ?? ""
        var tokens = Set(world.devices.values.filter { ($0.phone ?? $0.token) == id }.map(\.token))
        if let token = condition.token { tokens.insert(token) }
        return (id, tokens)
    }

    /// The pushes that reached the phone of `tokens`, each with the outcome it reached it with, oldest first: a
    /// push delivered from storage with its `delivered` event's outcome, at the event.
    private func arrivals(on tokens: Set<String>) -> [(record: JournalRecord, device: DeviceOutcome, at: Date)] {
        var arrivals: [(record: JournalRecord, device: DeviceOutcome, at: Date)] = []
        var stored: [UInt64: JournalRecord] = [:]
        var mine: [String: Bool] = [:]
        for record in records {
            if let event = record.deviceEvent {
                if let device = event.device, let push = stored[event.push] {
                    arrivals.append((push, device, event.at))
                }
                continue
            }
            guard record.kind == .devicePush, let device = record.device, let text = record.deviceToken else {
                continue
            }
            let onPhone = mine[text] ?? (DeviceToken(text).map { tokens.contains($0.hex) } ?? false)
            mine[text] = onPhone
            guard onPhone else { continue }
            if device.kind == .stored { stored[record.sequence] = record }
            arrivals.append((record, device, record.receivedAt))
        }
        return arrivals
    }
}
