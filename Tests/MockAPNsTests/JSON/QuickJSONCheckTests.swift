import Testing
@testable import MockAPNs

@Suite("Quick JSON check agrees with the parser")
struct QuickJSONCheckTests {
    /// Whether the full parser takes `text` as a JSON object.
    static func parserAccepts(_ bytes: [UInt8]) -> Bool {
        (try? JSONParser.validate(bytes)) == true
    }

    static let payloads = [
        #"{"aps":{"alert":{"title":"Order #1234 is on its way","body":"Your courier is 5 minutes away"},"sound":"default"}}"#,
        #"{"aps":{"content-available":1}}"#,
        #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"eta":-3.5e2,"stops":[1,2,0.25],"driver":null,"late":false,"ok":true}}}"#,
        #" { "aps" : { "alert" : "tab\tnew\nline \"quoted\" back\\slash \/ \b\f\r" } , "x" : [ ] , "y" : { } } "#,
        "{}",
        // Nested exactly as deep as the parser allows: an object and 255 arrays.
        "{\"deep\":" + String(repeating: "[", count: 255) + String(repeating: "]", count: 255) + "}",
    ]

    @Test("takes the payloads providers send, as the parser does")
    func plainPayloads() {
        for payload in Self.payloads {
            let bytes = Array(payload.utf8)
            #expect(QuickJSONCheck.isPlainObject(bytes), "\(payload.prefix(60))")
            #expect(Self.parserAccepts(bytes))
        }
    }

    @Test(
        "leaves to the parser what it does not take at a glance, and never takes what the parser refuses",
        arguments: [
            "", " ", "[]", "1", "\"s\"", "null", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{,}", "{\"a\":01}",
            "{\"a\":-}", "{\"a\":1.}", "{\"a\":1e}", "{\"a\":1e+}", "{\"a\":.5}", "{\"a\":+1}", "{\"a\":tru}",
            "{\"a\":nul}", "{\"a\":\"\u{01}\"}", "{\"a\":\"x}", "{\"a\":\"\\x\"}", "{\"a\":1} x", "{\"a\":1}}",
            "{\"a\":[1,]}", "{\"a\":[1 2]}", "{'a':1}", "{\"a\":\"\\u00e9\"}", "{\"a\":\"é\"}", "{\"a\":\"\\ud800\"}",
            String(repeating: "[", count: 300), "{\"a\":" + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}",
        ])
    func trickyInputs(text: String) {
        let bytes = Array(text.utf8)
        if QuickJSONCheck.isPlainObject(bytes) {
            #expect(Self.parserAccepts(bytes), "quick check took \(text.debugDescription), the parser refuses it")
        }
    }

    @Test("never takes a mutated payload that the parser refuses (20,000 seeded mutations)")
    func mutations() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array("{}[]\":,.-+eE0123456789tfnrul \\/\tabx".utf8) + [0x01, 0x7F, 0xC3, 0xA9]
        var accepted = 0
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
            if QuickJSONCheck.isPlainObject(bytes) {
                accepted += 1
                #expect(Self.parserAccepts(bytes), "quick check took \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // Mutations inside strings keep many payloads valid: the quick path must still be taking some.
        #expect(accepted > 1000)
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
