import Foundation
import Testing

@testable import MockAPNs

/// `PayloadScan`'s one scan says what the phone would show as a parse and a walk over the built values would: the
/// same answer for hand-picked payloads and for thousands of generated ones (keys escaped, repeated, nested).
@Suite("payload display")
struct PayloadDisplayTests {
    /// The display worked out from the parsed payload: the rules of phone.md §4, written plainly. A repeated member
    /// counts as its last, except alert text, which any non-empty text key gives.
    static func reference(_ payload: JSONValue) -> PayloadDisplay {
        func last(_ name: String, _ members: [(String, JSONValue)]) -> JSONValue? {
            members.last { $0.0 == name }?.1
        }
        func isText(_ value: JSONValue?) -> Bool {
            if case .string(let text) = value { return !text.isEmpty }
            return false
        }
        guard case .object(let members) = payload else { return .notAnObject }
        guard let aps = last("aps", members) else { return .noAPS }
        guard case .object(let apsMembers) = aps else { return .apsNotAnObject }
        let alertKeys: Set = ["title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key"]
        let alert: PayloadShape.Alert
        switch last("alert", apsMembers) {
        case nil, .null?: alert = .absent
        case .string(let text)?: alert = text.isEmpty ? .withoutText : .withText
        case .object(let fields)?:
            alert = fields.contains { alertKeys.contains($0.0) && isText($0.1) } ? .withText : .withoutText
        default: alert = .withoutText
        }
        let sound = last("sound", apsMembers)
        var hasSound = isText(sound)
        if case .object? = sound { hasSound = true }
        var hasBadge = false
        if case .number? = last("badge", apsMembers) { hasBadge = true }
        if alert == .withText || hasSound || hasBadge { return .visible }
        return alert == .withoutText ? .alertWithoutText : .nothingInAPS
    }

    static let samples = [
        #"[1]"#, #""aps""#, #"{}"#, #"{"aps":null}"#, #"{"aps":[]}"#, #"{"aps":{"alert":{"body":""}}}"#,
        #"{"aps":{"alert":{"body":"x"}},"aps":{}}"#, #"{"aps":{"alert":{"b\u006fdy":"x"}}}"#,
        #"{"aps":{"alert":{"subtitle-loc-key":"K"}}}"#, #"{"aps":{"alert":{"subtitle-loc-key-2":"K"}}}"#,
        #"{"aps":{"badge":"3"}}"#, #"{"aps":{"sound":""}}"#, #"{"aps":{"sound":"\u00e9"}}"#, #"{"\u0061ps":{}}"#,
        #"{"aps":{"alert":"\n"}}"#, #"{"aps":{"alert":{"title":"\u00e9t\u00e9 \ud83d\ude00"}}}"#,
    ]

    @Test("hand-picked payloads: the scan agrees with the parsed payload", arguments: samples)
    func handPicked(_ text: String) throws {
        let bytes = Array(text.utf8)
        #expect(PayloadScan.scan(bytes).display == Self.reference(try JSONParser.parse(bytes)), "\(text)")
    }

    @Test("5,000 generated payloads: the scan agrees with the parsed payload")
    func generated() throws {
        var generator = SplitMix64(seed: 0x5EED_0020)
        var seen: [PayloadDisplay: Int] = [:]
        for _ in 0..<5_000 {
            let text = Self.value(depth: 0, &generator)
            let bytes = Array(text.utf8)
            let scan = PayloadScan.scan(bytes)
            let parsed = try JSONParser.parse(bytes)
            #expect(scan.display == Self.reference(parsed), "\(text)")
            #expect((scan.problem == nil) == (scan.display != .notAnObject))
            seen[scan.display, default: 0] += 1
        }
        // Every answer is well represented, so that each is compared many times.
        let all: [PayloadDisplay] = [.visible, .notAnObject, .noAPS, .apsNotAnObject, .nothingInAPS, .alertWithoutText]
        for display in all {
            #expect(seen[display, default: 0] >= 20, "\(display): \(seen)")
        }
    }

    /// A random JSON text built from the names and values that matter, some names spelled with escapes.
    static func value(depth: Int, _ generator: inout SplitMix64) -> String {
        let names = [
            "aps", "alert", "sound", "badge", "title", "subtitle", "body", "loc-key", "title-loc-key",
            "subtitle-loc-key", "launch-image", "content-available", "", "apsx", "subtitle-loc-keys",
        ]
        // Half the time the name that matters at this depth (aps, then its members, then the alert's).
        let likely = [["aps"], ["alert", "sound", "badge"], ["title", "body", "loc-key", "launch-image"]]
        func name(_ generator: inout SplitMix64) -> String {
            let pool = depth < likely.count && generator.next() % 2 == 0 ? likely[depth] : names
            let plain = pool[Int(generator.next() % UInt64(pool.count))]
            guard let first = plain.unicodeScalars.first, generator.next() % 4 == 0 else { return plain }
            let escaped = String(format: "\\u%04x", first.value)
            return escaped + plain.unicodeScalars.dropFirst().map(String.init).joined()
        }
        // Mostly objects near the top, so that aps, its alert and the alert's keys are reached often.
        let pick = depth == 0 && generator.next() % 10 != 0 ? 6 : generator.next() % (depth >= 3 ? 6 : 10)
        switch pick {
        case 0: return "null"
        case 1: return "0"
        case 2: return #""""#
        case 3: return #""Hi""#
        case 4: return "true"
        case 5: return #""\n""#
        case 6, 7, 8:
            let count = Int(generator.next() % 5)
            let members = (0..<count).map { _ in "\"\(name(&generator))\":\(value(depth: depth + 1, &generator))" }
            return "{" + members.joined(separator: ",") + "}"
        default:
            let count = Int(generator.next() % 3)
            return "[" + (0..<count).map { _ in value(depth: depth + 1, &generator) }.joined(separator: ",") + "]"
        }
    }
}
