import Testing

@testable import MockAPNs

/// One rule for device tokens, shared by the validator, the control API and journal queries.
@Suite("DeviceToken")
struct DeviceTokenTests {
    @Test("takes a non-empty, even number of hex digits in either case, and keeps them lower-case")
    func accepts() {
        #expect(DeviceToken("ab")?.hex == "ab")
        #expect(DeviceToken("0123ABcd")?.hex == "0123abcd")
        #expect(DeviceToken(String(repeating: "0A", count: 80))?.hex == String(repeating: "0a", count: 80))
        #expect(DeviceToken("ab")?.description == "ab")
    }

    @Test("refuses no digits, an odd count, other characters and non-ASCII digits")
    func refuses() {
        for text in ["", "a", "abc", "zz", "0x12", "ab ", " ab", "ab/c", "\u{FF41}\u{FF42}", "\u{0661}\u{0662}"] {
            #expect(DeviceToken(text) == nil, "\(text)")
        }
    }

    @Test("the path's token: what follows /3/device/ up to a query, or nil for a path of another shape")
    func tokenInPath() {
        let cases: [(String, String?)] = [
            ("/3/device/ab12", "ab12"), ("/3/device/ab12?x=1", "ab12"), ("/3/device/ab?c?d", "ab"),
            ("/3/device/", ""), ("/3/device/?", ""), ("/3/device/ab/cd", "ab/cd"), ("/3/device/\u{E9}?", "\u{E9}"),
            ("/3/device", nil), ("/3/devices/ab", nil), ("/3/Device/ab", nil), ("", nil), ("/", nil),
            ("/3/device\u{E9}ab", nil), ("\u{E9}/3/device/ab", nil),
        ]
        for (path, token) in cases {
            #expect(APNsRequest.deviceToken(in: path) == token, "\(path)")
            // A path that is a slice of a longer string (not the start of its storage) reads the same.
            let longer = "xx" + path
            #expect(APNsRequest.deviceToken(in: String(longer.dropFirst(2))) == token, "\(path) as a slice")
        }
    }

    @Test("the byte scan the validator memoizes says hex and upper case as the parser does")
    func byteScan() {
        func digits(_ text: String) -> (isHex: Bool, hasUppercase: Bool) {
            let scanned = text.withUTF8Bytes(DeviceToken.digits(in:))
            return (scanned.isHex, scanned.hasUppercase)
        }
        #expect(digits("0123abcdef") == (true, false))
        #expect(digits("0123ABCDEF") == (true, true))
        #expect(digits("ab\u{FF41}") == (false, false))
        #expect(digits("gg") == (false, false))
        #expect(digits("") == (true, false))
        #expect(digits("0123abcdeF") == (true, true))
        #expect(digits("Fg") == (false, true))
        // Every byte value: hex exactly for 0-9, a-f and A-F.
        for byte in UInt8.min...UInt8.max {
            let scanned = [0x61, byte].withUnsafeBufferPointer(DeviceToken.digits(in:))
            #expect(scanned.isHex == DeviceToken.isHexDigit(byte), "byte \(byte)")
            #expect(scanned.hasUppercase == (byte >= 0x41 && byte <= 0x46), "byte \(byte)")
        }
        for text in ["", "ab", "Ab", "a", "zz", "\u{FF41}\u{FF42}"] {
            #expect((DeviceToken(text) != nil) == (DeviceToken.hasTokenLength(text.utf8.count) && digits(text).isHex))
        }
    }

    @Test("the control API and the query filter refuse what the validator refuses, with their own messages")
    func oneRule() throws {
        let fullwidth = "\u{FF41}\u{FF42}"
        #expect(
            throws: MockAPNsControlError.badRequest(
                "'\(fullwidth)' is not a device token: give an even number of hex digits")
        ) {
            try InProcessControl.checkedToken(fullwidth)
        }
        #expect(try InProcessControl.checkedToken("ABAB") == "abab")
        #expect(
            throws: InputError(
                "token must be an even number of hex digits (a device token), got '\(fullwidth)'")
        ) {
            try JournalQuery.parse([("token", fullwidth)])
        }
        #expect(try JournalQuery.parse([("token", "ABab")]).query.token == "abab")
    }
}
