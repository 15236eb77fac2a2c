import Yams

extension ScenarioLoader {
    /// One node of a scenario document and the path that reached it, so that every error can say where it is.
    struct Field {
        /// The YAML node.
        let node: Node
        /// The field path, such as `devices[2].token`; empty for the document.
        let path: String
        /// The scenario file, for errors.
        let file: String?

        /// An error about this field, at its line and column.
        func error(_ message: String) -> ScenarioError {
            ScenarioError(file: file, line: node.mark?.line, column: node.mark?.column, field: path, message: message)
        }

        /// The field `key` of this mapping.
        func child(_ key: String, _ node: Node) -> Field {
            Field(node: node, path: path.isEmpty ? key : "\(path).\(key)", file: file)
        }

        /// Element `index` (0-based) of this list.
        func element(_ index: Int, _ node: Node) -> Field {
            Field(node: node, path: "\(path)[\(index)]", file: file)
        }

        /// The node's resolved YAML tag (`int`, `bool`, `null`, `str`, ...).
        var tagName: Tag.Name { Tag.Name(rawValue: node.tag.rawValue) }

        /// Whether the node is YAML's null (`~`, `null`, or nothing after the colon).
        var isNull: Bool {
            guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any else { return false }
            return tagName == .null
        }

        /// Whether the node is a scalar written in quotes (and so always a string).
        var isQuoted: Bool {
            guard case .scalar(let scalar) = node else { return false }
            return scalar.style != .plain && scalar.style != .any
        }

        /// How the node reads in a "got ..." message.
        var shortDescription: String {
            switch node {
            case .mapping: return "a mapping"
            case .sequence: return "a list"
            case .alias: return "an alias"
            case .scalar(let scalar):
                if isNull { return "nothing (null)" }
                let text = scalar.string.count > 40 ? scalar.string.prefix(37) + "..." : scalar.string
                return isQuoted ? "the string \"\(text)\"" : "'\(text)'"
            }
        }

        /// The text of a scalar; mappings, lists and null are errors.
        func string() throws(ScenarioError) -> String {
            guard case .scalar(let scalar) = node, !isNull else {
                throw error("expected a string, got \(shortDescription)")
            }
            return scalar.string
        }

        /// A plain integer scalar within `range`.
        func integer(in range: ClosedRange<Int> = Int.min...Int.max) throws(ScenarioError) -> Int {
            guard case .scalar(let scalar) = node, !isQuoted, tagName == .int, let value = Int.construct(from: scalar)
            else {
                let hint = isQuoted ? " (write numbers without quotes)" : ""
                throw error("expected an integer, got \(shortDescription)\(hint)")
            }
            guard range.contains(value) else {
                throw error("must be \(Self.describe(range)), got \(value)")
            }
            return value
        }

        /// A plain `true` or `false`.
        func bool() throws(ScenarioError) -> Bool {
            guard case .scalar(let scalar) = node, !isQuoted, tagName == .bool, let value = Bool.construct(from: scalar)
            else {
                throw error("expected true or false, got \(shortDescription)")
            }
            return value
        }

        /// One of a fixed set of words, given as (word, value) pairs.
        func choice<Value>(_ options: KeyValuePairs<String, Value>) throws(ScenarioError) -> Value {
            let text = try string()
            if let match = options.first(where: { $0.key == text }) { return match.value }
            let words = options.map(\.key).joined(separator: ", ")
            throw error("must be one of: \(words); got \(shortDescription)")
        }

        /// The elements of a list.
        func list() throws(ScenarioError) -> [Field] {
            guard case .sequence(let sequence) = node else {
                throw error("expected a list, got \(shortDescription)")
            }
            return sequence.enumerated().map { element($0.offset, $0.element) }
        }

        /// The entries of a mapping whose keys must all be among `known`.
        func mapping(known: [String]) throws(ScenarioError) -> Fields {
            guard case .mapping(let mapping) = node else {
                throw error("expected a mapping with fields \(known.joined(separator: ", ")), got \(shortDescription)")
            }
            var entries = [(key: String, field: Field)]()
            for (keyNode, valueNode) in mapping {
                let keyField = Field(node: keyNode, path: path, file: file)
                guard case .scalar(let key) = keyNode else {
                    throw keyField.error("a field name must be a plain word, got \(keyField.shortDescription)")
                }
                guard known.contains(key.string) else {
                    let unknown = Field(node: keyNode, path: child(key.string, keyNode).path, file: file)
                    throw unknown.error(Self.unknownFieldMessage(key.string, known: known))
                }
                entries.append((key.string, child(key.string, valueNode)))
            }
            return Fields(field: self, entries: entries)
        }

        /// The entries of a mapping with free keys (headers, payload paths).
        func freeMapping() throws(ScenarioError) -> [(key: String, field: Field)] {
            guard case .mapping(let mapping) = node else {
                throw error("expected a mapping, got \(shortDescription)")
            }
            var entries = [(key: String, field: Field)]()
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let key) = keyNode else {
                    let keyField = Field(node: keyNode, path: path, file: file)
                    throw keyField.error("a key must be a string, got \(keyField.shortDescription)")
                }
                entries.append((key.string, child(key.string, valueNode)))
            }
            return entries
        }

        /// "unknown field 'x'", a guess when one known field is close, and the list of known fields.
        static func unknownFieldMessage(_ key: String, known: [String]) -> String {
            "unknown field '\(key)'\(NameSuggestion.hint(for: key, among: known)); "
                + "known fields: \(known.joined(separator: ", "))"
        }

        /// A range in words: "at least 1", "between 0 and 65535".
        static func describe(_ range: ClosedRange<Int>) -> String {
            switch (range.lowerBound, range.upperBound) {
            case (Int.min, Int.max): "an integer"
            case (let low, Int.max): "at least \(low)"
            case (Int.min, let high): "at most \(high)"
            case (let low, let high): "between \(low) and \(high)"
            }
        }
    }

    /// The fields of one YAML mapping, after unknown keys were refused.
    struct Fields {
        /// The mapping itself, for errors about missing fields.
        let field: Field
        /// The entries in file order.
        let entries: [(key: String, field: Field)]

        /// The field named `key`, or `nil` when it is absent or null.
        subscript(key: String) -> Field? {
            guard let entry = entries.first(where: { $0.key == key }), !entry.field.isNull else { return nil }
            return entry.field
        }

        /// The field named `key`; its absence is an error at the mapping.
        func required(_ key: String) throws(ScenarioError) -> Field {
            guard let value = self[key] else {
                let missing = Field(node: field.node, path: field.child(key, field.node).path, file: field.file)
                throw missing.error("missing required field '\(key)'")
            }
            return value
        }
    }
}
