/// A device token: the hex digits after `/3/device/`, and the key of a device in the world.
///
/// "Hex in the path. Do not assume 64 characters: 108 and 160 have been seen" (apns-reference §9; doc/seen).
/// The one definition of the format, used by the validator on every push (`digits(in:)`, over the bytes), by the
/// control API's device routes and by the `token` filter of journal queries: a non-empty, even number of ASCII hex
/// digits, either case. The validator also refuses tokens over `maximumLength` digits, and upper case unless
/// `acceptUppercaseDeviceTokens`; a `DeviceToken` holds the digits lower-cased, as the world keys devices.
public struct DeviceToken: Sendable, Hashable, CustomStringConvertible {
    /// The token's digits, lower-case.
    public let hex: String

    /// The longest token the validator takes, in digits (README, "device token lengths").
    public static let maximumLength = 1024

    /// `text` as a token, lower-cased; `nil` unless it is a non-empty, even number of ASCII hex digits.
    public init?(_ text: String) {
        let valid = text.withUTF8Bytes { bytes in Self.hasTokenLength(bytes.count) && Self.digits(in: bytes).isHex }
        guard valid else { return nil }
        hex = text.lowercased()
    }

    /// A token the validator checked and lower-cased already (`APNsValidator.checkDeviceTokenFormat`): wraps
    /// `hex` as it is, without a second pass over its digits on the request path.
    init(validated hex: String) {
        self.hex = hex
    }

    /// The digits.
    public var description: String { hex }

    /// What a token's characters are made of: all hex digits, and whether some are upper case.
    struct Digits {
        /// Every byte is an ASCII hex digit (true for no bytes).
        var isHex: Bool
        /// Some digit is one of `A`-`F`.
        var hasUppercase: Bool
    }

    /// Whether `count` digits can make a token: at least one pair (a token is bytes, two digits each).
    static func hasTokenLength(_ count: Int) -> Bool {
        count > 0 && count % 2 == 0
    }

    /// What the bytes of a token are made of, in one pass over them: one table read per byte, no branch (a
    /// branch per byte was 2.6 % of the server's CPU on distinct tokens).
    static func digits(in bytes: UnsafeBufferPointer<UInt8>) -> Digits {
        var every: UInt8 = hexDigit
        var any: UInt8 = 0
        byteClasses.withUnsafeBufferPointer { classes in
            for byte in bytes {
                let byteClass = classes[Int(byte)]
                every &= byteClass
                any |= byteClass
            }
        }
        return Digits(isHex: every & hexDigit != 0, hasUppercase: any & upperHexDigit != 0)
    }

    /// `byteClasses`' bits: a hex digit, an upper-case one.
    private static let hexDigit: UInt8 = 1
    private static let upperHexDigit: UInt8 = 2
    /// Each byte's class, by value.
    private static let byteClasses: [UInt8] = (0...255).map { byte in
        let byte = UInt8(byte)
        guard isHexDigit(byte) else { return 0 }
        return byte >= 0x41 && byte <= 0x46 ? hexDigit | upperHexDigit : hexDigit
    }

    /// `0`-`9`, `a`-`f` or `A`-`F`.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }
}
