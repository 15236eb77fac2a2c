import Foundation
import MockAPNsClient
import MockAPNsTesting
import Testing

@testable import MockAPNs

/// The clock through `MockAPNsControl`: in-process, over HTTP with the Swift client, and with injected clocks.
@Suite("The clock in Swift", .serialized)
struct ClockClientTests {
    @Test("the Swift client reads and moves the clock as in-process, and gets 400s back as errors")
    func overHTTP() async throws {
        try await withControlServer { server, control in
            let client = MockAPNsControlClient(url: control.url)
            #expect(try await client.clock().offset == .zero)
            let advanced = try await client.advanceClock(by: .seconds(9 * 3600))
            #expect(advanced.offset == .seconds(9 * 3600))
            #expect(abs(advanced.now.timeIntervalSinceNow - 9 * 3600) < 10)
            #expect(try await server.clock().offset == .seconds(9 * 3600))
            #expect(try await client.advanceClock(by: .seconds(-300)).offset == .seconds(9 * 3600 - 300))

            let date = Date(timeIntervalSince1970: 1_893_456_000.25)
            let set = try await client.setClock(to: date)
            #expect(abs(set.now.timeIntervalSince(date)) < 1)
            #expect(abs(DurationText.seconds(set.offset) - date.timeIntervalSinceNow) < 10)

            await #expect(throws: MockAPNsControlError.self) {
                try await client.advanceClock(by: .seconds(20 * 365 * 86_400))
            }
            do {
                _ = try await client.setClock(to: Date(timeIntervalSince1970: 0))
                Issue.record("1970 is more than 10 years back, yet the clock moved")
            } catch let error as MockAPNsControlError {
                #expect(error.status == 400 && error.message.hasPrefix("set: the clock would be -"), "\(error)")
            }
            #expect(abs(try await client.clock().now.timeIntervalSince(date)) < 10)
            #expect(try await client.resetClock().offset == .zero)

            _ = try await client.advanceClock(by: .seconds(60))
            try await client.reset()
            #expect(try await server.clock().offset == .zero)
        }
    }

    @Test("withMockAPNs runs on the movable clock: server.advanceClock(by:) moves what the journal records")
    func testingLibrary() async throws {
        try await withMockAPNs { server in
            try await server.advanceClock(by: .seconds(8 * 3600))
            #expect(try await server.clock().offset == .seconds(8 * 3600))
            #expect(abs(server.server.engine.clock.now().timeIntervalSinceNow - 8 * 3600) < 10)
            try await server.resetClock()
            #expect(abs(server.server.engine.clock.now().timeIntervalSinceNow) < 10)
        }
    }

    @Test("an injected ManualClock moves from its start date, and reset takes it back there")
    func manualClock() async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let manual = ManualClock(start)
        try await withTestServer(clock: manual) { server in
            let moved = try await server.advanceClock(by: .seconds(3600))
            #expect(moved.now == start + 3600 && moved.offset == .seconds(3600))
            #expect(manual.now() == start + 3600)
            manual.advance(by: 60)
            #expect(try await server.clock().offset == .seconds(3660))
            #expect(try await server.setClock(to: start - 10).offset == .seconds(-10))
            try await server.reset()
            #expect(manual.now() == start)
        }
    }

    @Test("a server on the SystemClock reads offset zero and refuses to move with 409")
    func systemClock() async throws {
        try await withTestServer(clock: SystemClock()) { server in
            #expect(try await server.clock().offset == .zero)
            do {
                _ = try await server.advanceClock(by: .seconds(1))
                Issue.record("the system clock moved")
            } catch let error as MockAPNsControlError {
                #expect(error.status == 409 && error.message.contains("SystemClock"))
            }
            try await server.reset()  // nothing to set back: reset still works
        }
    }

    @Test("concurrent moves all land: the offset is their sum")
    func concurrentMoves() async throws {
        let clock = MovableClock()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { _ = try? clock.move(.advance(.milliseconds(index % 2 == 0 ? 1000 : -500))) }
            }
        }
        #expect(clock.offset == .seconds(50))
    }

    @Test("the clock JSON reads back as it was written, negative offsets and fractions included")
    func readingJSON() throws {
        let reading = ClockReading(now: Date(timeIntervalSince1970: 1_795_370_400.25), offset: .milliseconds(-300_250))
        #expect(
            reading.json.jsonText == #"{"now":"2026-11-22T18:00:00.250Z","unix":1795370400.25,"offset":"-300.25s"}"#)
        let back = try #require(ClockReading(json: reading.json))
        #expect(back.offset == reading.offset && abs(back.now.timeIntervalSince(reading.now)) < 0.001)
        #expect(ClockReading.offsetText(.seconds(9 * 3600)) == "9h")
        #expect(ClockReading.offsetText(.zero) == "0s")
        #expect(ClockReading.offsetText(.seconds(-300)) == "-5m")
        #expect(try ClockMove(json: ClockMove.advance(.seconds(-300)).json.jsonText) == .advance(.seconds(-300)))
        #expect(try ClockMove(json: ClockMove.reset.json.jsonText) == .reset)
    }
}
