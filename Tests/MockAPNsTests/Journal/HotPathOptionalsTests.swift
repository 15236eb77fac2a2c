import Foundation
import Testing

/// The values made on every push keep their optional stored properties spelled `Optional<…>` (README, hot path;
/// bench/README.md, "twelfth session"). A `T?` property starts as an implicit `nil`: an initializer that sets it
/// then assigns over that `nil`, and Swift built the whole value aside and copied it out, a retain and a release for
/// each reference it holds, on every push. A `T?` reads as harmless, so each type's comment points here.
@Suite("hot path: no implicit nil in the per-push values")
struct HotPathOptionalsTests {
    /// The types, by file; each file's members of the type itself are indented by four spaces.
    static let files = [
        "Sources/MockAPNs/Journal/JournalRecord.swift",
        "Sources/MockAPNs/Validation/Verdict.swift",
        "Sources/MockAPNs/Devices/DeviceOutcome.swift",
        "Sources/MockAPNs/Devices/PhoneWalk.swift",
        "Sources/MockAPNs/APNs/APNsResponse.swift",
        "Sources/MockAPNs/Validation/Rejection.swift",
    ]

    /// A stored `var` of the type declared `T?` or `T!` with no initial value, whatever its modifiers, observers or
    /// trailing comment (a computed one goes on with `{` and no observer).
    static func implicitNils(in source: String) -> [String] {
        let words = "public|private|fileprivate|internal|package|nonisolated|weak|unowned|lazy"
        let modifiers = #"(?:(?:@\w+(?:\([^)]*\))?|"# + words + #")(?:\([^)]*\))? )*"#
        let declaration = try! Regex(
            "^    " + modifiers + #"var \w+\s*:\s*[^={]*[?!]\s*(?:\{\s*(?:didSet|willSet)\b.*|//.*)?$"#)
        return source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { $0.wholeMatch(of: declaration) != nil }
    }

    @Test("the check finds `T?` and `T!` properties and passes `Optional<T>`, an initial value and a computed one")
    func checkFindsImplicitNil() {
        let source = """
            struct Sample {
                public var note: String?
                private(set) var box: Box?
                @exclusivity(unchecked) nonisolated(unsafe) var guarded: Int? // why
                var unwrapped: String!
                var observed: String? { didSet { count += 1 } }
                var spelled: Optional<String>
                var initial: String? = nil
                var computed: String? { nil }
                    var nested: String?
            }
            """
        #expect(
            Self.implicitNils(in: source) == [
                "    public var note: String?", "    private(set) var box: Box?",
                "    @exclusivity(unchecked) nonisolated(unsafe) var guarded: Int? // why",
                "    var unwrapped: String!", "    var observed: String? { didSet { count += 1 } }",
            ])
    }

    @Test("the per-push values declare no `T?` stored property", arguments: files)
    func noImplicitNil(file: String) throws {
        let url = AuthTestFiles.packageRoot.appendingPathComponent(file)
        let source = try String(contentsOf: url, encoding: .utf8)
        #expect(source.contains("Optional<"), "\(file) is not the file the test expects")
        let found = Self.implicitNils(in: source)
        #expect(found.isEmpty, "spell these Optional<…> (README, hot path): \(found)")
    }
}
