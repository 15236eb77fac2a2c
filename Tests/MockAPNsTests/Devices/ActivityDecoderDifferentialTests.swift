import Foundation
import Testing

@testable import MockAPNs

/// The strongest proof that `ActivityDecoder` follows Swift's `JSONDecoder`: the same JSON decoded by both,
/// Foundation's into real `Decodable` types, over many generated cases; success, failure and decoded dates must
/// agree.
@Suite("ActivityDecoder agrees with Foundation's JSONDecoder")
struct ActivityDecoderDifferentialTests {
    /// `{"v": …}` as a Swift struct with one stored property of type `T`.
    struct Box<T: Decodable>: Decodable {
        var v: T
    }

    /// A nested `ContentState` with an optional object, an array of objects and an array of optionals.
    struct Nested: Decodable {
        struct Rider: Decodable {
            var name: String
            var rating: Double?
        }
        struct Stop: Decodable {
            var at: Int
        }
        var rider: Rider?
        var stops: [Stop]
        var tags: [String?]
    }

    static let nestedFields: [ActivityField] = [
        ActivityField(
            "rider",
            .optional(
                .object([ActivityField("name", .string), ActivityField("rating", .optional(.double))]))),
        ActivityField("stops", .array(.object([ActivityField("at", .int)]))),
        ActivityField("tags", .array(.optional(.string))),
    ]

    /// JSON number texts: hand-picked edges, then generated ones (a fixed seed, so a failure repeats).
    static let numberTexts: [String] = {
        var texts = [
            "0", "-0", "3", "3.5", "3.0", "1e3", "1E3", "1e-3", "1E+2", "-0.0", "0e400", "1e-400",
            "1e400", "-1e400",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "9223372036854775807.0", "9223372036854775295.0", "9223372036854775296.0",
            "-9223372036854775807.0",
            "-9223372036854775808.0", "9007199254740993.0", "9007199254740993.5", "9007199254740993.0000",
            "9007199254740993e0", "12345678901234567.0", "4611686018427387904.5", "1.0000000000000000001",
            "0.000000000000000000000000000001e30", "123456789012345678901234567890e-20", "1e19", "1e18",
            "-1e18",
            "2e-308", "4.9e-324", "1e-320", "1.7976931348623157e308", "1.8e308", "1700000000",
            "1700000000000",
            "1.79e9", "784111777", "-1e300", "1e300", "0.1", "100e-2", "0.5e1", "5e-1",
            "18446744073709551616",
            "90071992547409930000000e-6", "9007199254740993000", "9.007199254740993e15",
            "900719925474099300e-2",
            "0.0000000000000000000000000000000000000000009007199254740993e58", "0e8", "0E7", "-0.0e+6",
            "0.0e0",
            "0e12", "10e-1", "0.00e1", "1000000000000000000000e-3",
        ]
        var generator = SplitMix64(seed: 0x5EED_1201)
        for _ in 0..<400 {
            var text = Bool.random(using: &generator) ? "-" : ""
            let integerDigits = Int.random(in: 1...21, using: &generator)
            text += String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<integerDigits { text += String(Int.random(in: 0...9, using: &generator)) }
            if Int.random(in: 0...2, using: &generator) == 0 { text = text.hasPrefix("-") ? "-0" : "0" }
            if Bool.random(using: &generator) {
                text += "."
                let zeros = Bool.random(using: &generator)
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    text += zeros ? "0" : String(Int.random(in: 0...9, using: &generator))
                }
            }
            if Int.random(in: 0...2, using: &generator) == 0 {
                text += ["e", "E", "e+", "e-"].randomElement(using: &generator)!
                text += String(Int.random(in: 0...25, using: &generator))
            }
            texts.append(text)
        }
        return texts
    }()

    /// Values of every JSON type, for the type checks.
    static let otherValues: [String] = [
        "null", "true", "false", "\"\"", "\"3\"", "\"true\"", "\"https://example.com/a?b=c\"",
        "\"a b\"",
        "\"http://[::1\"", "\"%\"", "\"2026-11-23T10:00:00Z\"", "\"2026-11-23T10:00:00.250Z\"",
        "\"2026-11-23\"",
        "\"2026-11-23T10:00:00\"", "\"2026-11-23T10:00:00+01:00\"", "\"2026-11-23 10:00:00Z\"", "[]",
        "[1]", "{}",
        "{\"v\":1}",
    ]

    /// Decodes `{"v": value}` with Foundation; `nil` where it throws.
    static func foundation<T: Decodable>(
        _ type: T.Type, _ value: String, dates: JSONDecoder.DateDecodingStrategy = .deferredToDate
    ) -> T? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dates
        return (try? decoder.decode(Box<T>.self, from: Data("{\"v\":\(value)}".utf8)))?.v
    }

    /// Decodes `{"v": value}` with `ActivityDecoder`.
    static func mock(
        _ type: ActivityFieldType, _ value: String, dates: ActivityDateDecoding = .deferredToDate
    ) throws -> ActivityDecodeResult {
        let json = try JSONParser.parse(Array("{\"v\":\(value)}".utf8))
        return ActivityDecoder(dateDecoding: dates).decode(
            json, as: [ActivityField("v", type)], at: "content-state")
    }

    @Test("Int, Double, Bool, String and URL succeed and fail exactly where Foundation's do")
    func scalars() throws {
        var compared = 0
        for value in Self.numberTexts + Self.otherValues {
            let cases: [(ActivityFieldType, Bool)] = [
                (.int, Self.foundation(Int.self, value) != nil),
                (.double, Self.foundation(Double.self, value) != nil),
                (.bool, Self.foundation(Bool.self, value) != nil),
                (.string, Self.foundation(String.self, value) != nil),
                (.url, Self.foundation(URL.self, value) != nil),
                (.optional(.int), Self.foundation(Int?.self, value) != nil),
                (.array(.optional(.int)), Self.foundation([Int?].self, value) != nil),
            ]
            for (type, foundationDecodes) in cases {
                let result = try Self.mock(type, value)
                #expect((result.error == nil) == foundationDecodes, "\(type.name) from \(value): \(result)")
                compared += 1
            }
        }
        #expect(compared > 3000)
    }

    @Test("the Int an integral number decodes to is Foundation's, also above 2^53")
    func integerValues() {
        for text in Self.numberTexts {
            #expect(SwiftJSONNumber.int(text) == Self.foundation(Int.self, text), "Int from \(text)")
            #expect(
                SwiftJSONNumber.double(text) == Self.foundation(Double.self, text), "Double from \(text)")
        }
    }

    @Test(
        "Date decodes to Foundation's date under each strategy, ISO 8601 fractional seconds included")
    func dates() throws {
        let strategies: [(ActivityDateDecoding, JSONDecoder.DateDecodingStrategy)] = [
            (.deferredToDate, .deferredToDate), (.secondsSince1970, .secondsSince1970),
            (.millisecondsSince1970, .millisecondsSince1970), (.iso8601, .iso8601),
        ]
        for (ours, theirs) in strategies {
            for value in Self.numberTexts + Self.otherValues {
                let expected = Self.foundation(Date.self, value, dates: theirs)
                let result = try Self.mock(.date, value, dates: ours)
                #expect(result.dates.first?.date == expected, "\(ours) from \(value): \(result)")
                #expect((result.error == nil) == (expected != nil), "\(ours) from \(value): \(result)")
            }
        }
    }

    @Test(
        "nested objects, optional objects and arrays of optionals agree, extra and repeated keys included"
    )
    func nested() throws {
        let documents = [
            #"{"stops":[],"tags":[]}"#, #"{"rider":null,"stops":[{"at":1}],"tags":[null,"a"]}"#,
            #"{"rider":{"name":"Ana"},"stops":[],"tags":[]}"#,
            #"{"rider":{"rating":4.5},"stops":[],"tags":[]}"#,
            #"{"rider":{"name":"Ana","rating":"5"},"stops":[],"tags":[]}"#,
            #"{"stops":[{"at":1.5}],"tags":[]}"#,
            #"{"stops":[{}],"tags":[]}"#, #"{"stops":[null],"tags":[]}"#, #"{"stops":{},"tags":[]}"#,
            #"{"stops":[],"tags":[1]}"#, #"{"stops":[],"tags":null}"#,
            #"{"stops":[],"tags":[],"extra":{"x":1}}"#,
            #"{"stops":[],"stops":7,"tags":[]}"#, #"{"stops":7,"stops":[],"tags":[]}"#,
            #"{"rider":[],"stops":[],"tags":[]}"#,
            #"{"tags":[]}"#, #"[]"#, #""x""#, #"null"#,
        ]
        for document in documents {
            let foundation = try? JSONDecoder().decode(Nested.self, from: Data(document.utf8))
            let result = ActivityDecoder().decode(
                try JSONParser.parse(Array(document.utf8)), as: Self.nestedFields, at: "content-state")
            #expect((result.error == nil) == (foundation != nil), "\(document): \(result)")
        }
    }
}
