import Foundation

@testable import MockAPNs

/// One value of every wire type with every member set (and the variants that leave members out), for
/// `WireTypeJSONTests`: a member the mapping forgets to read back shows as a difference, not a silent `nil`.
enum WireTypeSamples {
    static let at = Date(timeIntervalSince1970: 1_790_000_000.1235)
    static let later = Date(timeIntervalSince1970: 1_790_000_360.5)

    static let auth = AuthSummary(
        kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1_789_999_000, verified: true,
        certificateTopics: ["com.example.app", "com.example.app.voip"])
    static let bareAuth = AuthSummary(
        kind: "token", teamID: nil, keyID: nil, issuedAt: nil, verified: false, certificateTopics: nil)
    static let response = APNsResponse(
        status: 400, apnsID: "123E4567-E89B-12D3-A456-4266554400A0", apnsUniqueID: "0f0e0d0c-0b0a-0908-0706-050403020100",
        body: #"{"reason":"BadDeviceToken"}"#)
    static let bareResponse = APNsResponse(status: 200, apnsID: "A", apnsUniqueID: nil, body: nil)

    /// Every member set, `communication` too (on a real outcome it goes with an alert, never a start).
    static let device: DeviceOutcome = {
        var device = DeviceOutcome(
            .started, rule: .activityStarted, reason: "push-to-start", trace: [.activityStarted, .soundOff],
            related: 7,
            activityID: "ACT-1", updateToken: "aa11", warnings: ["stale-date in 2057"],
            notes: ["no input-push-token"])
        device.communicationSender = "Mum"
        return device
    }()
    static let bareDevice = DeviceOutcome(.ignored)

    /// A Live Activity push that started an activity: the record member `device` is present.
    static var record: JournalRecord {
        var record = JournalRecord(
            sequence: 9, receivedAt: at, answeredAt: later, connectionID: 3, remoteAddress: "127.0.0.1:50000",
            request: APNsRequest(
                method: "POST", path: "/3/device/00ff", authority: "localhost",
                headers: [APNsHeader("apns-topic", "com.example.app.push-type.liveactivity")],
                body: Array(#"{"aps":{"event":"start","timestamp":1790000000}}"#.utf8), streamID: 5),
            verdict: Verdict(
                outcome: .rejected(.badDeviceToken, timestamp: nil), rule: "token.format", explanation: "bad",
                notes: ["note"], auth: auth, pushType: "liveactivity",
                topic: "com.example.app.push-type.liveactivity"),
            response: response, fault: nil, note: "a note")
        record.device = device
        return record
    }

    /// A replay through the control API (issue 22): on no connection, so `connection` and `stream` are `null`, and
    /// `replayOf` names the record it sent again.
    static var replay: JournalRecord {
        var record = JournalRecord(
            sequence: 10, receivedAt: at, answeredAt: later, connectionID: 0, remoteAddress: "",
            request: APNsRequest(
                method: "POST", path: "/3/device/00ff", headers: [APNsHeader("apns-topic", "com.example.app")],
                body: Array(#"{"aps":{}}"#.utf8), streamID: 0),
            verdict: Verdict(
                outcome: .accepted, rule: "accepted", explanation: "every check passed", pushType: "alert",
                topic: "com.example.app"),
            response: bareResponse)
        record.replayOf = 9
        return record
    }

    static let push = ActivityPush(
        at: at, sequence: 9, event: "update", outcome: .applied, reason: "newer timestamp", priority: 10,
        channel: "c2NvcmVzLTE=")
    static let barePush = ActivityPush(at: at, sequence: nil, event: "start", outcome: .started)

    static var upload: TokenUpload {
        var upload = TokenUpload(
            id: 4, activityID: "ACT-1", event: .started, token: "aa11", url: "http://127.0.0.1:9/tokens",
            maxAttempts: 3, at: at)
        upload.status = .failed
        upload.attempts = 3
        upload.httpStatus = 503
        upload.error = "HTTP 503"
        upload.finishedAt = later
        return upload
    }

    static var activity: ActivitySnapshot {
        var activity = LiveActivity(
            id: "ACT-1", attributesType: "DeliveryAttributes", attributes: ["order": "1234"],
            contentState: ["status": "out", "eta": .number("1.5")], updateToken: "aa11", pushToStartToken: "ff00",
            startedAt: at, timestamp: 1_790_000_000, staleDate: later, relevanceScore: 75.5,
            history: [push, barePush])
        activity.updatedAt = later
        activity.dismissalDate = later
        activity.endedAt = later
        activity.dismissedAt = later
        activity.startedByPush = true
        activity.channel = "c2NvcmVzLTE="
        activity.historyDropped = 2
        activity.tokenUploads = [upload]
        return ActivitySnapshot(activity: activity, state: .ended, endsAt: later, dismissesAt: later)
    }

    static var localActivity: ActivitySnapshot {
        let activity = LiveActivity(
            id: "ACT-2", attributesType: "DeliveryAttributes", attributes: [:], contentState: [:],
            updateToken: "bb22", pushToStartToken: nil, startedAt: at, timestamp: 0)
        return ActivitySnapshot(activity: activity, state: .active, endsAt: later, dismissesAt: later)
    }

    static var change: ActivityChange {
        ActivityChange(sequence: 12, kind: .pushed, outcome: .applied, activity: activity)
    }

    static var nearMiss: NearMiss {
        NearMiss(record: record, field: .topic, expected: "com.example.app", actual: "com.example.other")
    }

    static var waitResult: RecordWaitResult {
        RecordWaitResult(satisfied: false, count: 2, records: [record], nearMisses: [nearMiss])
    }

    static let verifyItem = VerifyReport.Item(
        kind: .expectation, name: "one start", passed: false, summary: "0 of 1 pushes",
        details: ["expected topic com.example.app"], records: [9, 10])
    static let verifyReport = VerifyReport(
        items: [verifyItem, VerifyReport.Item(kind: .check, name: "c", passed: true, summary: "ok")], recordCount: 7,
        droppedRecords: 1)

    static var stats: MockAPNsStats {
        var stats = MockAPNsStats(
            records: 7, total: 12, dropped: 1, accepted: 5, rejected: 2, byStatus: ["200": 5, "400": 2],
            byReason: ["BadDeviceToken": 2], byPushType: ["alert": 6, "none": 1], byTopic: ["com.example.app": 7],
            byConnection: ["1": 4, "2": 3], openConnections: 1, totalConnections: 2)
        stats.controlFramesSent = HTTP2FrameCounts(
            .sent, settings: 2, settingsAcks: 2, pings: 1, windowUpdates: 9, rstStreams: 1, goaways: 1)
        stats.failedHandshakes = 3
        stats.lastFailedHandshake = FailedHandshake(
            at: at, kind: "untrusted", message: "TLS handshake failed: the client does not trust the server certificate")
        return stats
    }

    static let reading = ClockReading(now: at, offset: .seconds(-300))
    static let moves: [ClockMove] = [.advance(.seconds(5400)), .set(at), .reset]
}
