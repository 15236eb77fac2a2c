import Testing

@testable import MockAPNs

@Suite("Base64URL")
struct Base64URLTests {
    @Test(
        "encodes without padding using - and _",
        arguments: [
            ([], ""),
            ([0x66], "Zg"),
            ([0x66, 0x6F], "Zm8"),
            ([0x66, 0x6F, 0x6F], "Zm9v"),
            ([0xFB, 0xFF, 0xBF], "-_-_"),
        ] as [([UInt8], String)]
    )
    func encodes(bytes: [UInt8], expected: String) {
        #expect(Base64URL.encode(bytes) == expected)
    }

    @Test("round-trips every length from 0 to 70 bytes")
    func roundTrips() {
        for length in 0...70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test("decodes with or without correct padding")
    func decodesPadding() {
        #expect(Base64URL.decode("Zg") == [0x66])
        #expect(Base64URL.decode("Zg==") == [0x66])
        #expect(Base64URL.decode("Zm8=") == [0x66, 0x6F])
    }

    @Test(
        "rejects characters outside the alphabet, wrong padding and impossible lengths",
        arguments: [
            "Zm9v+", "Zm/v", "Zm9v!", "Zm 9v", "Z", "Zm9vY", "Zg=", "Zg===", "Z=g=", "é", "=",
        ]
    )
    func rejects(input: String) {
        #expect(Base64URL.decode(input) == nil)
    }
}
