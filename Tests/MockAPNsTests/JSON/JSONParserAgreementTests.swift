import Testing
@testable import MockAPNs

@Suite("JSON parse and validate: one grammar, the same answers")
struct JSONParserAgreementTests {
    /// `parse` and `validate` on `bytes`: both accept it (and agree whether it is an object) or both refuse it with
    /// the same error; `PayloadScan` then words the same answer. Returns whether the text is a JSON object.
    @discardableResult
    static func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let text = String(decoding: bytes.prefix(120), as: UTF8.self).debugDescription
        let parsed: Result<JSONValue, JSONParser.Error>
        do { parsed = .success(try JSONParser.parse(bytes)) } catch { parsed = .failure(error) }
        let validated: Result<Bool, JSONParser.Error>
        do { validated = .success(try JSONParser.validate(bytes)) } catch { validated = .failure(error) }
        let problem = PayloadScan.problem(bytes)
        switch (parsed, validated) {
        case (.success(let value), .success(let isObject)):
            let parsedObject = if case .object = value { true } else { false }
            #expect(parsedObject == isObject, "object or not, for \(text)", sourceLocation: sourceLocation)
            let expected = isObject ? nil : "is JSON but not an object"
            #expect(problem == expected, "\(text)", sourceLocation: sourceLocation)
            return isObject
        case (.failure(let parseError), .failure(let validateError)):
            #expect(parseError == validateError, "errors for \(text)", sourceLocation: sourceLocation)
            #expect(problem == "is not JSON: \(parseError)", "\(text)", sourceLocation: sourceLocation)
            return false
        default:
            Issue.record("parse \(parsed) but validate \(validated) for \(text)", sourceLocation: sourceLocation)
            return false
        }
    }

    static let payloads = [
        #"{"aps":{"alert":{"title":"Order #1234 is on its way","body":"Your courier is 5 minutes away"},"sound":"default"}}"#,
        #"{"aps":{"content-available":1}}"#,
        #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"eta":-3.5e2,"stops":[1,2,0.25],"driver":null,"late":false,"ok":true}}}"#,
        #" { "aps" : { "alert" : "tab\tnew\nline \"quoted\" back\\slash \/ \b\f\r" } , "x" : [ ] , "y" : { } } "#,
        #"{"aps":{"alert":"Rue de l’Église \u00e9\ud83d\ude00 ü"},"names":["Zoë","\u0041"]}"#,
        "{}",
        // Nested exactly as deep as the parser allows: an object and 255 arrays.
        "{\"deep\":" + String(repeating: "[", count: 255) + String(repeating: "]", count: 255) + "}",
    ]

    @Test("both take the payloads providers send, as objects")
    func plainPayloads() throws {
        for payload in Self.payloads {
            let bytes = Array(payload.utf8)
            #expect(Self.expectAgreement(bytes), "\(payload.prefix(60))")
            #expect(try JSONParser.validate(bytes))
        }
    }

    @Test(
        "refuse the same texts with the same error at the same byte",
        arguments: [
            "", " ", "[]", "1", "\"s\"", "null", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{,}", "{\"a\":01}",
            "{\"a\":-}", "{\"a\":1.}", "{\"a\":1e}", "{\"a\":1e+}", "{\"a\":.5}", "{\"a\":+1}", "{\"a\":tru}",
            "{\"a\":nul}", "{\"a\":\"\u{01}\"}", "{\"a\":\"x}", "{\"a\":\"\\x\"}", "{\"a\":1} x", "{\"a\":1}}",
            "{\"a\":[1,]}", "{\"a\":[1 2]}", "{'a':1}", "{\"a\":\"\\u00e9\"}", "{\"a\":\"é\"}", "{\"a\":\"\\ud800\"}",
            "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"é\\",
            String(repeating: "[", count: 300),
            "{\"a\":" + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}",
        ])
    func trickyInputs(text: String) {
        Self.expectAgreement(Array(text.utf8))
    }

    /// `{"a":"`: a string value starts after it.
    static let stringStart = Array(#"{"a":""#.utf8)

    /// What `PayloadScan` said for these before the grammar was made one (6015066): the diagnostics a provider
    /// reads in a rejection's notes, and their byte offsets, must not change.
    @Test(
        "words each refusal as before, with its byte offset",
        arguments: [
            ([], "is not JSON: unexpected end of JSON at byte 0"),
            (Array("[]".utf8), "is JSON but not an object"),
            (Array(#"{"a":01}"#.utf8), "is not JSON: expected ',' or '}' at byte 6"),
            (Array(#"{"a":1,}"#.utf8), "is not JSON: expected a member name at byte 7"),
            (Array(#"{"a" 1}"#.utf8), "is not JSON: expected ':' at byte 5"),
            (Array(#"{"a":tru}"#.utf8), "is not JSON: invalid literal at byte 5"),
            (Array(#"{"a":[1 2]}"#.utf8), "is not JSON: expected ',' or ']' at byte 8"),
            (Array(#"{"a":1} x"#.utf8), "is not JSON: unexpected text after the JSON value at byte 8"),
            (Array(#"{"a":"\x"}"#.utf8), "is not JSON: invalid escape at byte 8"),
            (Array(#"{"a":"\ud800"}"#.utf8), "is not JSON: unpaired surrogate at byte 12"),
            (Array(#"{"a":"\udc00"}"#.utf8), "is not JSON: unpaired surrogate at byte 12"),
            (Array(#"{"a":"\u12g4"}"#.utf8), "is not JSON: invalid \u{5C}u escape at byte 10"),
            (Array("{\"a\":\"x\u{01}\"}".utf8), "is not JSON: control character in string at byte 7"),
            (Array(#"{"a":"x"#.utf8), "is not JSON: unterminated string at byte 7"),
            (Array(#"{"a":-}"#.utf8), "is not JSON: invalid number at byte 6"),
            (Array(String(repeating: "[", count: 257).utf8), "is not JSON: nesting deeper than 256 at byte 256"),
            // Bytes that are not UTF-8: a bad continuation, an overlong form, a surrogate, beyond U+10FFFF, a cut
            // sequence between escapes; each found where its run of raw bytes ends.
            (Self.stringStart + [0xC3, 0x28, 0x22, 0x7D], "is not JSON: string is not valid UTF-8 at byte 8"),
            (Self.stringStart + [0xC0, 0x80, 0x78, 0x22, 0x7D], "is not JSON: string is not valid UTF-8 at byte 9"),
            (Self.stringStart + [0xED, 0xA0, 0x80, 0x22, 0x7D], "is not JSON: string is not valid UTF-8 at byte 9"),
            (
                Self.stringStart + [0xF4, 0x90, 0x80, 0x80, 0x22, 0x7D],
                "is not JSON: string is not valid UTF-8 at byte 10"
            ),
            (
                Self.stringStart + [0x5C, 0x6E, 0xE2, 0x80, 0x5C, 0x6E, 0x22, 0x7D],
                "is not JSON: string is not valid UTF-8 at byte 10"
            ),
            // Unterminated: the raw bytes before the first escape are checked, those after it are not.
            (Self.stringStart + [0xFF, 0x78], "is not JSON: string is not valid UTF-8 at byte 8"),
            (Self.stringStart + [0x5C, 0x74, 0xFF, 0x78], "is not JSON: unterminated string at byte 10"),
        ] as [([UInt8], String)])
    func diagnostics(bytes: [UInt8], problem: String) {
        #expect(PayloadScan.problem(bytes) == problem)
        Self.expectAgreement(bytes)
    }

    @Test("UTF-8 between escapes is taken as UTF-8, and parsed to the same text")
    func unicodeText() throws {
        let bytes: [UInt8] = [0x7B, 0x22, 0xC3, 0xA9, 0x22, 0x3A, 0x22, 0x5C, 0x74, 0xE2, 0x80, 0x99, 0x22, 0x7D]
        #expect(PayloadScan.problem(bytes) == nil)
        #expect(try JSONParser.parse(bytes) == ["é": "\t’"])
    }

    @Test("agree on 20,000 seeded mutations of payloads, valid and not, ASCII and not")
    func mutations() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet =
            Array("{}[]\":,.-+eE0123456789tfnrulu \\/\tabx".utf8)
            + [0x01, 0x7F, 0xC3, 0xA9, 0xE2, 0x80, 0x99, 0xED, 0xA0, 0xF4, 0x90, 0xC0, 0xFF]
        var objects = 0
        for _ in 0..<20_000 {
            var bytes = Array(Self.payloads[Int(generator.next() % UInt64(Self.payloads.count - 1))].utf8)
            for _ in 0..<Int(1 + generator.next() % 3) where !bytes.isEmpty {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                }
            }
            if Self.expectAgreement(bytes) { objects += 1 }
        }
        // Mutations inside strings keep many payloads valid: both outcomes must be well represented.
        #expect(objects > 1000)
        #expect(objects < 19_000)
    }
}

/// A small seeded generator, so that the mutations are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
