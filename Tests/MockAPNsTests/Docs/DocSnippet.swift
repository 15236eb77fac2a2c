import Foundation
import Testing

/// One fenced code block of a Markdown page, with the `doc-test` directive written before it.
///
/// The rules `DocSnippetTests` enforces (README.md "Documentation is tested"):
/// - `sh` and `python` blocks run against a fresh `mock-apns serve`; `yaml` blocks must pass `mock-apns check`;
///   `json` blocks must parse; `text` blocks are output and are not run.
/// - Any other block (`swift`, or a fence without a language) must carry `<!-- doc-test: skip (reason) -->`
///   on the line before it.
/// - `<!-- doc-test: setup -->`: the block runs, and is also put in front of every later block of its
///   language on the same page (the page's `C=...`, `TOKEN=...`).
/// - `<!-- doc-test: background -->`: the block runs until it is stopped (`--follow`, a stream): it must not
///   fail within a few seconds.
struct DocSnippet: CustomTestStringConvertible, Sendable {
    /// What the line before the fence asks for.
    enum Directive: Equatable, Sendable {
        case none
        case skip(reason: String)
        case setup
        case background
        /// A `doc-test` comment the test does not understand; it fails the block.
        case invalid(String)
    }

    /// The page, relative to the package root.
    var file: String
    /// The 1-based line of the opening fence.
    var line: Int
    /// The language after the fence, lower-cased; empty when there is none.
    var language: String
    /// The block's text, without the fences.
    var text: String
    var directive: Directive
    /// The text of the page's earlier `setup` blocks of the same language, to run first.
    var setup: String

    /// Whether the block needs the clients venv: a Python block, or a shell block that runs `python3`.
    var needsVenv: Bool { language == "python" || text.contains("python3 ") }

    var testDescription: String { "\(file):\(line) \(language.isEmpty ? "(no language)" : language)" }

    /// The pages whose blocks are tested.
    static let pages = ["README.md", "scenarios/README.md"] + docsPages

    private static var docsPages: [String] {
        let folder = AuthTestFiles.packageRoot.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// Every block of every page in `pages`.
    static func all() -> [DocSnippet] {
        pages.flatMap { page in
            let url = AuthTestFiles.packageRoot.appendingPathComponent(page)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [DocSnippet]() }
            return parse(text, file: page)
        }
    }

    /// The fenced blocks of one Markdown text.
    static func parse(_ markdown: String, file: String) -> [DocSnippet] {
        let lines = markdown.components(separatedBy: "\n")
        var snippets: [DocSnippet] = []
        var setups: [String: String] = [:]
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces).lowercased()
            let directive = Self.directive(before: index, in: lines)
            var body: [String] = []
            var end = index + 1
            while end < lines.count, !lines[end].hasPrefix("```") {
                body.append(lines[end])
                end += 1
            }
            let text = body.joined(separator: "\n") + "\n"
            snippets.append(
                DocSnippet(
                    file: file, line: index + 1, language: language, text: text, directive: directive,
                    setup: setups[language, default: ""]
                )
            )
            if directive == .setup { setups[language, default: ""] += text }
            index = end + 1
        }
        return snippets
    }

    /// The directive in the nearest non-blank line above line `index`, if that line is one.
    private static func directive(before index: Int, in lines: [String]) -> Directive {
        var previous = index - 1
        while previous >= 0, lines[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
        guard previous >= 0 else { return .none }
        let line = lines[previous].trimmingCharacters(in: .whitespaces)
        let prefix = "<!-- doc-test:"
        guard line.hasPrefix(prefix), line.hasSuffix("-->") else { return .none }
        let content = line.dropFirst(prefix.count).dropLast(3).trimmingCharacters(in: .whitespaces)
        if content == "setup" { return .setup }
        if content == "background" { return .background }
        if content.hasPrefix("skip (") && content.hasSuffix(")") {
            let reason = content.dropFirst(6).dropLast().trimmingCharacters(in: .whitespaces)
            return .skip(reason: reason)
        }
        return .invalid(line)
    }
}
