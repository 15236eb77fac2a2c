import Foundation
import Testing

@testable import MockAPNs

@Suite("Timestamps")
struct TimestampTests {
    @Test(
        "writes ISO 8601 UTC with milliseconds, as Foundation's formatter does",
        arguments: [0, 1_790_000_000.125, 951_782_400.5, 1_709_164_799.875, 4_102_444_800, 86_399.25, -1.5])
    func matchesFoundation(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let expected = date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
        #expect(Timestamp.text(date) == expected)
    }

    @Test("rounds milliseconds as the 410 timestamp in answers does")
    func millisecondsLikeAnswers() {
        let date = Date(timeIntervalSince1970: 1_790_000_000.123)
        #expect(Timestamp.millis(date) == 1_790_000_000_123)
        #expect(Timestamp.text(date) == "2026-09-21T14:13:20.123Z")
    }

    @Test(
        "reads its own text back as the same millisecond",
        arguments: [0, 1_790_000_000.125, 951_782_400.5, 1_709_164_799.875, 4_102_444_800, 86_399.25, -1.5])
    func readsBack(seconds: Double) throws {
        let text = Timestamp.text(Date(timeIntervalSince1970: seconds))
        let date = try #require(Timestamp.date(fromText: text))
        #expect(Timestamp.text(date) == text)
        #expect(Timestamp.date(fromText: "2026-09-21") == nil)
    }
}
