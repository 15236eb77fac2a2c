extension RecordSearch {
    /// One word of a search as written: its field name (`nil` for a free word or phrase), its value with the
    /// quotes taken off, whether it is negated, and where it starts.
    struct Word {
        /// The word as written, `-` and quotes included.
        var text: String
        /// Where it starts: 1 for the first character of the search.
        var position: Int
        /// Whether it starts with `-`.
        var negated: Bool
        /// The name before its first unquoted `:`; `nil` for a free word or phrase.
        var field: String?
        /// The value after the colon, or the free word or phrase, without quotes.
        var value: String
    }

    /// Splits `text` into words: runs of characters between spaces, where a `"…"` part may hold spaces.
    static func words(of text: String) throws(Failure) -> [Word] {
        var words: [Word] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            guard !characters[index].isWhitespace else {
                index += 1
                continue
            }
            let start = index
            var negated = false
            if characters[index] == "-", index + 1 < characters.count, !characters[index + 1].isWhitespace {
                negated = true
                index += 1
            }
            var field: String?
            var value = ""
            var quoted = false
            while index < characters.count, !characters[index].isWhitespace {
                let character = characters[index]
                if character == "\"" {
                    quoted = true
                    index = try readQuoted(characters, from: index, into: &value, wordStart: start)
                    continue
                }
                if character == ":", field == nil, !quoted {
                    field = value
                    value = ""
                } else {
                    value.append(character)
                }
                index += 1
            }
            let written = String(characters[start..<index])
            if field?.isEmpty == true {
                throw Failure(
                    message: "a colon with no field name before it; quote the word to search the payload for it",
                    word: written, position: start + 1)
            }
            if !negated, field == nil, !quoted, value == "-" {
                throw Failure(message: "a '-' with nothing to negate", word: written, position: start + 1)
            }
            words.append(Word(text: written, position: start + 1, negated: negated, field: field, value: value))
        }
        return words
    }

    /// Reads the quoted part that starts at `index` into `value`; returns the index after its closing quote.
    private static func readQuoted(
        _ characters: [Character], from index: Int, into value: inout String, wordStart: Int
    ) throws(Failure) -> Int {
        var index = index + 1
        while index < characters.count {
            switch characters[index] {
            case "\"": return index + 1
            case "\\" where index + 1 < characters.count && ["\"", "\\"].contains(characters[index + 1]):
                value.append(characters[index + 1])
                index += 2
            default:
                value.append(characters[index])
                index += 1
            }
        }
        throw Failure(
            message: "a quote that is never closed; end the phrase with \"",
            word: String(characters[wordStart...]), position: wordStart + 1)
    }
}
