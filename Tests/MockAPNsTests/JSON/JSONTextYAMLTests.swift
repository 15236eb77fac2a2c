import Foundation
import Testing
@testable import MockAPNs

/// JSON written by `JSONText` is also YAML that reads back as the same text: scenario snapshots depend on it.
@Suite("JSONText output reads back as the same text in YAML")
struct JSONTextYAMLTests {
    /// The characters libyaml refuses raw in a quoted scalar, or folds like a newline.
    static let awkward: [Unicode.Scalar] = [
        "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}",
    ]

    @Test("each awkward character survives JSON and YAML", arguments: awkward)
    func roundTrip(scalar: Unicode.Scalar) throws {
        let text = "a\(Character(scalar))b"
        let quoted = "\"" + JSONText.escape(text) + "\""
        #expect(try JSONParser.parse(quoted) == .string(text))
        let scenario = try ScenarioLoader.parse(yaml: "name: \(quoted)\n", sourcePath: nil, baseDirectory: "/")
        #expect(scenario.name == text)
    }

    @Test("plain ASCII and ordinary non-ASCII text are written unchanged")
    func unchanged() {
        #expect(JSONText.escape("com.example.app") == "com.example.app")
        #expect(JSONText.escape("Grüße, 東京 🚀 – ok") == "Grüße, 東京 🚀 – ok")
        #expect(JSONText.escape("tab\tquote\"") == "tab\\tquote\\\"")
    }

    @Test("a scenario whose names hold them loads back from its snapshot as the same scenario")
    func scenarioSnapshot() throws {
        let yaml = #"name: "a\x7fb\u0085c\u2028d""# + "\napps:\n  - bundleID: \"com.x\\ufeff\"\n"
        let scenario = try ScenarioLoader.parse(yaml: yaml, sourcePath: nil, baseDirectory: "/")
        let document = ScenarioSnapshot(name: scenario.name, world: scenario.world, rules: scenario.rules).document
        let reloaded = try ScenarioLoader.parse(yaml: document.jsonText, sourcePath: nil, baseDirectory: "/")
        #expect(reloaded.name == "a\u{7F}b\u{85}c\u{2028}d")
        #expect(ScenarioSnapshot(name: reloaded.name, world: reloaded.world, rules: reloaded.rules).document == document)
    }
}
