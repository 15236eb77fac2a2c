import Foundation
import Testing

@testable import MockAPNs

/// The background walk (phone.md §4, Background) over HTTP/2: what a silent push launches, and what holds it.
@Suite("phone: background pushes end to end", .serialized)
struct PhoneBackgroundEndToEndTests {
    static let t = PhonePush.token

    static let world = """
        apps:
          - bundleID: com.example.nomode
            backgroundModes: [voip]
          - bundleID: com.example.slow
            backgroundHandler: timesOut
        phones:
          swiped: { apps: { com.example.app: { state: forceQuit } } }
          open: { apps: { com.example.app: { state: foreground } } }
          no-refresh: { apps: { com.example.app: { backgroundAppRefresh: false } } }
          saving: { lowPowerMode: true }
          asleep: { apps: { com.example.app: { state: notRunning } } }
          denied: { apps: { com.example.app: { authorization: denied } } }
        devices:
          - { token: \(t(40)), phone: swiped }
          - { token: \(t(41)), phone: open }
          - { token: \(t(42)), phone: no-refresh }
          - { token: \(t(43)), phone: saving }
          - { token: \(t(44)), phone: asleep }
          - { token: \(t(45)), phone: denied }
        """

    static func silent(
        _ server: MockAPNsServer, _ n: Int, topic: String = "com.example.app", priority: String = "5"
    ) async throws -> PhonePush.Result {
        let result = try await PhonePush.send(
            server, to: t(n), PhonePush.background, type: "background", topic: topic, priority: priority)
        #expect(result.status == 200)
        return result
    }

    @Test("a silent push to a force-quit app is not launched (phone.md §7, 1); the others by their state")
    func states() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let swiped = try await Self.silent(server, 40)
            #expect(swiped.kindAndRule == "notLaunched background-force-quit")
            #expect(
                swiped.device?.reason
                    == "the person force-quit com.example.app; iOS does not launch it for background pushes until it "
                    + "is opened or the phone restarts")
            #expect(try await Self.silent(server, 1).kindAndRule == "launched background-launched")
            #expect(try await Self.silent(server, 41).kindAndRule == "launched background-foreground")
            #expect(try await Self.silent(server, 42).kindAndRule == "notLaunched background-refresh-off")
            #expect(
                try await Self.silent(server, 2, topic: "com.example.nomode").kindAndRule
                    == "notLaunched background-mode-missing")
            #expect(
                try await Self.silent(server, 3, topic: "com.example.slow").kindAndRule
                    == "terminated background-handler-timeout")
            let saving = try await Self.silent(server, 43)
            #expect(saving.kindAndRule == "held background-low-power")
            let again = try await Self.silent(server, 43)
            #expect(again.device?.notes.contains { $0.hasPrefix("replaces #\(saving.sequence), held") } == true)
            let asleep = try await Self.silent(server, 44)
            #expect(asleep.device?.reason?.contains("launched in the background (it was not running)") == true)
            let denied = try await Self.silent(server, 45)
            #expect(denied.kindAndRule == "launched background-launched")
            #expect(denied.device?.notes.contains("open: backgroundWhenDenied = deliver") == true)
        }
        let discard = try PhonePush.scenario(Self.world + "\nsimulation: { backgroundWhenDenied: discard }\n")
        try await withTestServer(scenario: discard) { server in
            let result = try await Self.silent(server, 45)
            #expect(result.kindAndRule == "discarded notifications-disabled")
        }
    }

    @Test("priority 10: launched with the warning background-priority-10, or not launched under the setting")
    func priorityTen() async throws {
        try await withTestServer { server in
            let ten = try await Self.silent(server, 5, priority: "10")
            #expect(ten.device?.kind == .launched && ten.device?.rule == .backgroundPriorityTen)
            #expect(ten.device?.warnings.first?.hasPrefix("background-priority-10: ") == true)
        }
        let notLaunched = try PhonePush.scenario("simulation: { backgroundPriorityTen: notLaunched }\n")
        try await withTestServer(scenario: notLaunched) { server in
            let result = try await Self.silent(server, 5, priority: "10")
            #expect(result.kindAndRule == "notLaunched background-priority-10")
        }
    }

    @Test("five silent pushes in a row: all launched, the 4th and 5th warned over rate (phone.md §7, 7)")
    func overRate() async throws {
        try await withTestServer { server in
            var results: [PhonePush.Result] = []
            for _ in 1...5 { results.append(try await Self.silent(server, 6)) }
            #expect(results.allSatisfy { $0.device?.kind == .launched })
            #expect(
                results.map { $0.device?.rule?.id ?? "" }.suffix(2) == ["background-over-rate", "background-over-rate"])
            #expect(results.prefix(3).allSatisfy { $0.device?.warnings == [] })
            #expect(
                results[4].device?.warnings
                    == [
                        "background-over-rate: 5 background pushes reached this phone within 1h; Apple advises two "
                            + "or three an hour at most; iOS may throttle"
                    ])
        }
    }

    @Test("under backgroundBudget 3 the 4th and 5th are held; the budget renews on the movable clock")
    func budget() async throws {
        let clock = MovableClock()
        let scenario = try PhonePush.scenario("simulation: { backgroundBudget: 3, backgroundBudgetWindow: 1h }\n")
        try await withControlServer(scenario: scenario, clock: clock) { server, control in
            var kinds: [String] = []
            for _ in 1...5 { kinds.append(try await Self.silent(server, 7).kindAndRule) }
            #expect(
                kinds.prefix(3).allSatisfy {
                    $0 == "launched background-launched" || $0 == "launched background-over-rate"
                })
            #expect(kinds.suffix(2) == ["held background-budget", "held background-budget"])
            #expect(try await Self.silent(server, 8).device?.kind == .launched, "the budget is per phone")
            let moved = try await ControlCurl.call("POST", control, "/v1/clock", body: #"{"advance": "61m"}"#)
            #expect(moved.status == 200)
            #expect(try await Self.silent(server, 7).device?.kind == .launched)
        }
    }

    @Test("an alert with content-available is shown, and the launch joins its trace")
    func alertWithLaunch() async throws {
        try await withTestServer(scenario: try PhonePush.scenario(Self.world)) { server in
            let shown = try await PhonePush.send(server, to: Self.t(9), PhonePush.alert(#""content-available":1"#))
            #expect(shown.kindAndRule == "shown alert-shown")
            #expect(shown.device?.trace == [.alertShown, .backgroundLaunched])
            let swiped = try await PhonePush.send(server, to: Self.t(40), PhonePush.alert(#""content-available":1"#))
            #expect(swiped.kindAndRule == "shown alert-shown" && swiped.device?.fired(.backgroundForceQuit) == true)
            let denied = try await PhonePush.send(server, to: Self.t(45), PhonePush.alert(#""content-available":1"#))
            #expect(denied.kindAndRule == "launched background-launched")
            #expect(denied.device?.trace == [.notificationsDisabled, .backgroundLaunched])
        }
    }
}
